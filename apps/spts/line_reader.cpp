#include "line_reader.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

#include "matrix.h"

namespace spts {

line_reader::line_reader(const std::string& path) : path_(path), buf_(size_t(4) << 20) {
  f_ = std::fopen(path.c_str(), "rb");
  if (!f_) throw input_error(path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (fstat(fileno(f_), &st) == 0 && S_ISREG(st.st_mode)) size_ = (int64_t)st.st_size;
}

line_reader::~line_reader() {
  if (f_) std::fclose(f_);
}

bool line_reader::next(const char** begin, const char** end) {
  for (;;) {
    char* base = buf_.data();
    char* nl = (char*)std::memchr(base + pos_, '\n', len_ - pos_);
    if (nl || (eof_ && pos_ < len_)) {
      const char* e = nl ? nl : base + len_;
      *begin = base + pos_;
      pos_ = nl ? (size_t)(nl - base) + 1 : len_;
      if (e > *begin && e[-1] == '\r') --e;
      *end = e;
      ++line_;
      return true;
    }
    if (eof_) return false;
    // Keep the partial line, then refill behind it; a line longer than the buffer grows it.
    std::memmove(base, base + pos_, len_ - pos_);
    len_ -= pos_;
    pos_ = 0;
    if (len_ == buf_.size()) buf_.resize(buf_.size() * 2);
    size_t got = std::fread(buf_.data() + len_, 1, buf_.size() - len_, f_);
    len_ += got;
    if (got == 0) {
      if (std::ferror(f_))
        throw input_error(path_ + ":" + std::to_string(line_ + 1) + ": read error: " +
                          std::strerror(errno));
      eof_ = true;
    }
  }
}

}  // namespace spts
