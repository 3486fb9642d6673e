// A file cache of generated inputs (--cache DIR): generating a 14M-row road graph takes seconds on
// the host, the solve milliseconds, so a scaling run spent most of a GPU call generating the same
// matrices again for every variant and PE count. The file holds
// L exactly as generate() made it; a file that does not check out is ignored and replaced.
#pragma once

#include <string>

#include "matrix.h"

namespace spts {

// DIR/<spec>@<order>.csr, the spec's characters outside [A-Za-z0-9._=,-] as '_'.
std::string cache_path(const std::string& dir, const std::string& gen_spec, const char* order);

// Fills `l` from `path`; false (and `l` untouched) when there is no such file or it is not a
// complete, consistent cache file of this version (*why says which).
bool cache_load(const std::string& path, csr* l, std::string* why);

// Writes `l` to `path` through a temporary file and a rename, so PEs that store the same input at
// once never leave a torn file; false and *why on failure (the run goes on without a cache).
bool cache_store(const std::string& path, const csr& l, std::string* why);

}  // namespace spts
