// A file read line by line through large chunks: no iostream and no per-token calls into the C
// library, so a 30M-entry Matrix Market file reads in seconds. Internal to the inputs library.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace spts {

class line_reader {
 public:
  // Unopenable file -> input_error "PATH: cannot open: REASON".
  explicit line_reader(const std::string& path);
  ~line_reader();
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  // The next line as [*begin, *end), without its '\n' and a trailing '\r'; false at the end of
  // the file. The range stays valid until the next call.
  bool next(const char** begin, const char** end);
  int64_t line() const { return line_; }  // 1-based number of the line last returned
  int64_t file_size() const { return size_; }  // bytes, -1 when unknown

 private:
  std::string path_;
  FILE* f_ = nullptr;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  int64_t line_ = 0;
  int64_t size_ = -1;
};

}  // namespace spts
