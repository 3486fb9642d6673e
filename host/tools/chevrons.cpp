// gio-chevrons IN OUT: copies a CUDA/HIP source, rewriting each kernel launch
// `kernel<<<grid, block[, shared[, stream]]>>>(args)` into
// `hipLaunchKernelGGL(kernel, grid, block, shared, stream, args)`, the form the host platform's
// C++ compiler takes (it has no <<<...>>>). oshcc/oshc++ run it on the host platform for sources
// that launch kernels so, and compile OUT, whose #line directive keeps diagnostics on IN.
// Comments, string and character literals are copied untouched. The kernel is the expression just
// before <<<: names, `::`, and template arguments in <...>.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

bool ident(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// Index just past the comment or literal starting at i, or i when there is none.
size_t skip_opaque(const std::string& s, size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    size_t e = s.find('\n', i);
    return e == std::string::npos ? s.size() : e;
  }
  if (s.compare(i, 2, "/*") == 0) {
    size_t e = s.find("*/", i + 2);
    return e == std::string::npos ? s.size() : e + 2;
  }
  if (s[i] == '"' || s[i] == '\'') {
    const char q = s[i];
    for (size_t j = i + 1; j < s.size(); ++j) {
      if (s[j] == '\\') ++j;
      else if (s[j] == q || s[j] == '\n') return j + 1;
    }
    return s.size();
  }
  return i;
}

// From `open` (a '(' or the first character after <<<), the index of the closing `close` at depth
// 0 of (), [] and {}, or npos.
size_t find_close(const std::string& s, size_t i, const std::string& close) {
  int depth = 0;
  while (i < s.size()) {
    const size_t j = skip_opaque(s, i);
    if (j != i) { i = j; continue; }
    const char c = s[i];
    if (depth == 0 && s.compare(i, close.size(), close) == 0) return i;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return std::string::npos;
      --depth;
    }
    ++i;
  }
  return std::string::npos;
}

// The launch configuration split at top-level commas.
std::vector<std::string> split_config(const std::string& c) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (size_t i = 0; i < c.size(); ++i) {
    const char ch = c[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    if (ch == ')' || ch == ']' || ch == '}') --depth;
    if (ch == ',' && depth == 0) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

// Start of the kernel expression that ends just before `end` (exclusive): identifiers, `::` and
// balanced template argument lists, skipping spaces between them.
size_t kernel_start(const std::string& s, size_t end) {
  size_t i = end;
  while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) --i;
  size_t start = i;
  while (i > 0) {
    if (s[i - 1] == '>') {  // template arguments: back to the matching '<'
      int depth = 0;
      size_t j = i;
      while (j > 0) {
        --j;
        if (s[j] == '>') ++depth;
        else if (s[j] == '<' && --depth == 0) break;
      }
      if (depth != 0) break;
      i = j;
      start = i;
      continue;
    }
    if (ident(s[i - 1])) {
      while (i > 0 && ident(s[i - 1])) --i;
      start = i;
      if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') { i -= 2; start = i; continue; }
      break;
    }
    if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') { i -= 2; start = i; continue; }
    break;
  }
  return start;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gio-chevrons IN OUT\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "gio-chevrons: cannot read %s\n", argv[1]);
    return 1;
  }
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string s = buf.str();
  std::string out;
  size_t i = 0, copied = 0;
  while (i < s.size()) {
    const size_t j = skip_opaque(s, i);
    if (j != i) { i = j; continue; }
    if (s.compare(i, 3, "<<<") != 0) { ++i; continue; }
    const size_t k0 = kernel_start(s, i);
    const size_t cfg_end = find_close(s, i + 3, ">>>");
    size_t open = std::string::npos, close = std::string::npos;
    if (cfg_end != std::string::npos) {
      open = s.find_first_not_of(" \t\n", cfg_end + 3);
      if (open != std::string::npos && s[open] == '(') close = find_close(s, open + 1, ")");
    }
    auto line = [&] { return 1 + (long)std::count(s.begin(), s.begin() + i, '\n'); };  // for a report
    if (k0 == i || close == std::string::npos) {
      std::fprintf(stderr, "%s:%ld: gio-chevrons: a <<<...>>> launch it cannot read (kernel<<<grid, block>>>(args) "
                   "expected); write it as hipLaunchKernelGGL(kernel, grid, block, shared, stream, args...)\n", argv[1], line());
      return 1;
    }
    std::vector<std::string> cfg = split_config(s.substr(i + 3, cfg_end - i - 3));
    if (cfg.size() < 2 || cfg.size() > 4) {
      std::fprintf(stderr, "%s:%ld: gio-chevrons: a launch takes 2 to 4 configuration values (grid, block, shared "
                   "bytes, stream), not %zu\n", argv[1], line(), cfg.size());
      return 1;
    }
    while (cfg.size() < 4) cfg.push_back("0");
    const std::string args = s.substr(open + 1, close - open - 1);
    const bool empty = args.find_first_not_of(" \t\n") == std::string::npos;
    out += s.substr(copied, k0 - copied);
    out += "hipLaunchKernelGGL(" + s.substr(k0, i - k0);
    for (const std::string& c : cfg) out += "," + c;
    if (!empty) out += "," + args;
    out += ")";
    out.append((size_t)std::count(s.begin() + cfg_end + 3, s.begin() + open, '\n'), '\n');  // keep the lines
    i = copied = close + 1;
  }
  out += s.substr(copied);
  std::ofstream o(argv[2], std::ios::binary);
  // The compiler reports lines of IN; the escaped name keeps quotes and backslashes in it.
  std::string name;
  for (const char* p = argv[1]; *p; ++p) {
    if (*p == '"' || *p == '\\') name += '\\';
    name += *p;
  }
  o << "#line 1 \"" << name << "\"\n" << out;
  if (!o) {
    std::fprintf(stderr, "gio-chevrons: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
