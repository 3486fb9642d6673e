// Command-line parsing for jacobi2d: "--name value" or "--name=value".
#include "options.h"

#include "cli.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace jacobi {

const char* variant_name(variant v) {
  switch (v) {
    case variant::gio: return "gio";
    case variant::gio_launch: return "gio-launch";
    case variant::interk: return "interk";
    case variant::ikn: return "ikn";
    default: return "interk-overlap";
  }
}

void print_usage(const char* prog) {
  std::printf(
      "usage: giorun -n PES %s [options]\n"
      "  --nx N              columns (default 16384)\n"
      "  --ny N              rows, including the two periodic ghost rows (default 16384)\n"
      "  --iters N           iterations (default 1000)\n"
      "  --nccheck N         residual L2 norm every N iterations (default 1)\n"
      "  --type T            float | double (default float)\n"
      "  --variant V         gio            persistent kernel, device-initiated halo puts + signals\n"
      "                      gio-launch     one launch per iteration, device-initiated halo puts\n"
      "                      interk         kernel, then host-side halo puts + barrier, next kernel\n"
      "                      interk-overlap boundary rows first (high-priority stream), host\n"
      "                                     exchange overlapped with the interior kernel\n"
      "                      ikn            gio's kernel with every peer reached through GIO's CPU\n"
      "                                     proxy (sets GIO_TRANSPORT=proxy; needs libgio built\n"
      "                                     with libfabric): the paper's IKN baseline\n"
      "                      (default gio)\n"
      "  --json FILE         append the results as one JSON line\n"
      "  --warmup N          untimed iterations before each timed run (default 10)\n"
      "  --wgs N             work-groups per launch (default: as many as fit on the device)\n"
      "  --block N           threads per work-group (default 256; 64 on the host platform)\n"
      "  --sync S            how gio's and ikn's persistent kernel orders its work-groups'\n"
      "                      iterations: neighbours  each waits for those it shares rows with\n"
      "                                  grid        a grid barrier every iteration\n"
      "                      (default neighbours)\n"
      "  --timeout-s S       bound on each of the persistent kernel's waits for other\n"
      "                      work-groups (default 120)\n"
      "Every run is checked against a 1-PE reference of the same problem; the exit code is\n"
      "non-zero when the field or the norm differs beyond the tolerance.\n",
      prog);
}

bool parse_options(int argc, char** argv, options* o, bool* help) {
  using gio_app::to_int;
  *help = false;
  gio_app::arg_walker w{"jacobi2d", argc, argv};
  while (w.next()) {
    if (w.name == "-h" || w.name == "--help") {
      *help = true;
      return true;
    }
    if (w.name == "--inject-error") {
      o->inject_error = true;
      continue;
    }
    if (w.name == "--inject-stall") {
      o->inject_stall = true;
      continue;
    }
    if (!w.take_value()) return false;
    const std::string& name = w.name;
    const std::string& value = w.value;
    const char* n = name.c_str();
    const char* v = value.c_str();
    const char* p = w.prog;
    bool ok = true;
    if (name == "--nx") ok = to_int(p, n, v, 4, &o->nx);
    else if (name == "--ny") ok = to_int(p, n, v, 3, &o->ny);
    else if (name == "--iters") ok = to_int(p, n, v, 1, &o->iters);
    else if (name == "--nccheck") ok = to_int(p, n, v, 1, &o->nccheck);
    else if (name == "--warmup") ok = to_int(p, n, v, 0, &o->warmup);
    else if (name == "--wgs") ok = to_int(p, n, v, 0, &o->wgs);
    else if (name == "--block") ok = to_int(p, n, v, 0, &o->block);
    else if (name == "--timeout-s") ok = gio_app::to_positive(p, n, v, &o->timeout_s);
    else if (name == "--json") o->json = value;
    else if (name == "--type") {
      if (value == "float") o->dbl = false;
      else if (value == "double") o->dbl = true;
      else {
        std::fprintf(stderr, "jacobi2d: --type is float or double (got \"%s\")\n", v);
        ok = false;
      }
    } else if (name == "--sync") {
      if (value == "neighbours") o->grid_sync = false;
      else if (value == "grid") o->grid_sync = true;
      else {
        std::fprintf(stderr, "jacobi2d: --sync is neighbours or grid (got \"%s\")\n", v);
        ok = false;
      }
    } else if (name == "--variant") {
      if (value == "gio") o->var = variant::gio;
      else if (value == "gio-launch") o->var = variant::gio_launch;
      else if (value == "interk") o->var = variant::interk;
      else if (value == "interk-overlap") o->var = variant::interk_overlap;
      else if (value == "ikn") o->var = variant::ikn;
      else {
        std::fprintf(stderr, "jacobi2d: unknown --variant \"%s\" (see --help)\n", v);
        ok = false;
      }
    } else {
      std::fprintf(stderr, "jacobi2d: unknown option \"%s\" (see --help)\n", n);
      ok = false;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace jacobi
