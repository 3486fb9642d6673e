// Run-time settings, parsed once from the environment by the table in runtime/config_keys.h.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace gio {

struct config {
  // One member per key, same name as the environment variable.
#define GIO_CFG_MEMBER_U64(name) uint64_t name = 0;
#define GIO_CFG_MEMBER_STR(name) std::string name;
#define GIO_CFG_MEMBER_BOOL(name) bool name = false;
#define GIO_CFG_MEMBER(name, type, def, help) GIO_CFG_MEMBER_##type(name)
#include "runtime/config_keys.h"
  GIO_CONFIG_KEYS(GIO_CFG_MEMBER)
#undef GIO_CFG_MEMBER
#undef GIO_CFG_MEMBER_U64
#undef GIO_CFG_MEMBER_STR
#undef GIO_CFG_MEMBER_BOOL
};

// Reads every key (environment value or default); a malformed value is a fatal error naming the key.
config config_load();
// Prints every key with its value, default and help (gio-info).
void config_print(const config& c, FILE* out);
// Parses "64M", "1G", "4096" ... ; returns false on garbage or overflow.
bool config_parse_size(const char* s, uint64_t* out);

}  // namespace gio
