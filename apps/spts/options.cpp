// Command-line parsing for spts: "--name value" or "--name=value".
#include "options.h"

#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace spts {

const char* variant_name(variant v) {
  switch (v) {
    case variant::gio: return "gio";
    case variant::levelset: return "levelset";
    case variant::single: return "single";
    case variant::ikn: return "ikn";
    default: return "cusparse";
  }
}
const char* exchange_name(exchange e) {
  return e == exchange::signal ? "signal" : e == exchange::atomic ? "atomic" : e == exchange::queue ? "queue" : e == exchange::store ? "store" : "auto";
}
const char* kernel_name(kernel_kind k) {
  return k == kernel_kind::thread ? "thread" : k == kernel_kind::warp ? "warp" : "auto";
}
// --renumber's values, for the parser and for renumber_name.
const char* const kRenumberNames[] = {"auto", "level", "tiles", "blocks", "none"};
const renumber_kind kRenumberKinds[] = {renumber_kind::automatic, renumber_kind::level, renumber_kind::tiles,
                                        renumber_kind::blocks, renumber_kind::none};
const char* renumber_name(renumber_kind r) {
  for (size_t i = 0; i < sizeof kRenumberKinds / sizeof kRenumberKinds[0]; ++i)
    if (kRenumberKinds[i] == r) return kRenumberNames[i];
  return "auto";
}

void print_usage(const char* prog) {
  std::printf(
      "usage: giorun -n PES %s [options]\n"
      "Solves L x = b (L sparse lower triangular, rows in contiguous blocks over PEs) and checks x.\n"
      "  --variant V[,V]   one or more, run in turn on the same input:\n"
      "                    gio       sync-free solve; solved components travel to the PEs that\n"
      "                              need them from inside the kernel (default)\n"
      "                    levelset  one kernel per level, host exchange between levels\n"
      "                    single    the sync-free solve on one PE, no GIO calls\n"
      "                    cusparse  the vendor's SpSV (cusparse on cuda, rocsparse on hip), one PE\n"
      "                    ikn       gio's solve with every peer reached through GIO's CPU proxy\n"
      "                              (sets GIO_TRANSPORT=proxy; needs libgio built with libfabric;\n"
      "                              not in one run with gio or levelset): the paper's IKN baseline\n"
      "  --exchange E      gio, ikn: signal (one signal_set per component and PE, the value as the\n"
      "                    signal) | atomic (one uint64_atomic_set of the same word) | queue (a\n"
      "                    wave's components per PE in one putmem_signal into a receive queue the\n"
      "                    owner drains) | store (the word stored into each peer's copy through\n"
      "                    shmem_ptr: every peer must be load/store reachable) | auto (store when\n"
      "                    every peer is load/store reachable, else signal; default)\n"
      "  --kernel K        auto | thread (a thread per row) | warp (a wave per row); auto: warp\n"
      "                    when rows average 12 or more off-diagonals or rows of 32 or more hold\n"
      "                    a quarter of them\n"
      "  --matrix FILE     Matrix Market file (coordinate real/integer/pattern, general/symmetric)\n"
      "  --gen SPEC        generator (default grid2d:n=1024): grid2d:n=R | grid3d:n=R |\n"
      "                    road:rows=N,deg=2.5 | rmat:scale=S,deg=8 | banded:n=N,band=B; rows=N\n"
      "                    works for every kind, seed=S too\n"
      "  --cache DIR       keep generated inputs in DIR and read them from there next time\n"
      "                    (checked on reading; a bad file is replaced)\n"
      "  --order O         natural | random (a seeded symmetric permutation; default natural)\n"
      "  --diag D          files: given | unit | dominant (default given)\n"
      "  --type T          double | float (default double)\n"
      "  --balance B       rows | nnz: equal rows or equal nonzeros per PE (default rows)\n"
      "  --reps N          timed solves, the median is reported (default 5)\n"
      "  --warmup N        untimed solves first (default 1)\n"
      "  --block N         threads per work-group (default 256; 64 on the host platform)\n"
      "  --rows R          sync-free kernels: the order in which rows enter the device:\n"
      "                    natural (default) | level (sorted by level on the host; measured\n"
      "                    slower on every input: scattered rows make every poll its own load)\n"
      "                    | senders (gio, ikn: the rows other PEs wait for, and the rows they\n"
      "                    depend on, first; the rest after, each part in natural order)\n"
      "  --renumber R      sync-free solves (single, gio, ikn): level (rows renumbered by level,\n"
      "                    each level split over the PEs; preprocessing timed in prep)\n"
      "                    | tiles (one PE: level order in tiles of a wave's width of positions\n"
      "                    by block/wave levels, a work-group each; as level on several PEs)\n"
      "                    | blocks (each PE's contiguous block of L's rows, by level inside it:\n"
      "                    dependencies only from lower PEs; as level at one PE)\n"
      "                    | none (L's order, rows in contiguous blocks) | auto (default: tiles at\n"
      "                    one PE, blocks on several, where L has more than 32 levels and rows\n"
      "                    are solved a thread each; else none)\n"
      "  --analysis A      one PE, renumbered: where levels, the order and tiles are found:\n"
      "                    device (default: kernels) | host (passes over L on the host, the\n"
      "                    order uploaded) | compare (device, then checked against the host's\n"
      "                    levels, order and chunks outside prep; a difference fails the run)\n"
      "  --analysis-rows N device analysis: rows a thread of the levels kernel holds (1, 2, 4\n"
      "                    or 8; default 1): more rows in flight at the same occupancy\n"
      "  --analysis-backoff NS\n"
      "                    device analysis: longest sleep between a levels-kernel thread's polls\n"
      "                    of the one dependency it waits on, doubling from 32 ns (default 0)\n"
      "  --chunk-deps D    thread kernel: shared (default: a dependency on a row of the same\n"
      "                    work-group is polled in shared memory) | global (every dependency\n"
      "                    through xw in global memory: one hop through L2 each)\n"
      "  --poll-batch N    thread kernel: dependency words loaded at once, taken in order up to\n"
      "                    the first unsolved one (1-4, default 4)\n"
      "  --backoff NS      sync-free kernels: longest sleep between polls of an unsolved\n"
      "                    dependency, doubling from 32 ns (default 0: poll without sleeping)\n"
      "  --seed S          x_ref's seed, and --order random's for files (default 1)\n"
      "  --json FILE       append the result as one JSON line\n"
      "  --timeout S       bound on every wait inside the solve kernels, seconds (default 120)\n"
      "  --no-refs         do not time `single` and the vendor solve for the speedups\n"
      "  --probe-remote-ready  gio, ikn on 2+ PEs: after the timed solves, as many again with\n"
      "                    only this PE's own components reset, so every other PE's are already\n"
      "                    there: the solve without waiting on other PEs (its sends still go)\n"
      "b = L x_ref in double; the run fails (exit 1) when the relative error of x exceeds 1e-10\n"
      "(double) or 1e-4 (float). Bad arguments or input: exit 2.\n",
      prog);
}

namespace {
// One of `names`; false with a message otherwise.
template <typename E, size_t N>
bool to_enum(const char* opt, const std::string& v, const char* const (&names)[N], const E (&vals)[N], E* out) {
  for (size_t i = 0; i < N; ++i)
    if (v == names[i]) {
      *out = vals[i];
      return true;
    }
  std::string all;
  for (size_t i = 0; i < N; ++i) all += (i ? " | " : "") + std::string(names[i]);
  std::fprintf(stderr, "spts: %s is %s (got \"%s\")\n", opt, all.c_str(), v.c_str());
  return false;
}
}  // namespace

bool parse_options(int argc, char** argv, options* o, bool* help) {
  *help = false;
  gio_app::arg_walker w{"spts", argc, argv};
  while (w.next()) {
    const std::string& name = w.name;
    if (name == "-h" || name == "--help") {
      *help = true;
      return true;
    }
    if (name == "--inject-error" || name == "--no-refs") {
      (name == "--no-refs" ? o->refs : o->inject_error) = name != "--no-refs";
      continue;
    }
    if (name == "--inject-analysis-error") {
      o->inject_analysis = true;
      continue;
    }
    if (name == "--probe-remote-ready") {
      o->probe_ready = true;
      continue;
    }
    if (!w.take_value()) return false;
    const std::string& value = w.value;
    const char* n = name.c_str();
    const char* v = value.c_str();
    bool ok = true;
    if (name == "--reps") ok = gio_app::to_int("spts", n, v, 1, &o->reps);
    else if (name == "--warmup") ok = gio_app::to_int("spts", n, v, 0, &o->warmup);
    else if (name == "--block") ok = gio_app::to_int("spts", n, v, 0, &o->block);
    else if (name == "--poll-batch") {
      ok = gio_app::to_int("spts", n, v, 1, &o->poll_batch);
      if (ok && o->poll_batch > 4) {
        std::fprintf(stderr, "spts: --poll-batch is 1 to 4 (got %d)\n", o->poll_batch);
        ok = false;
      }
    } else if (name == "--analysis-rows") {
      ok = gio_app::to_int("spts", n, v, 1, &o->analysis_rows);
      if (ok && (o->analysis_rows & (o->analysis_rows - 1) || o->analysis_rows > 8)) {
        std::fprintf(stderr, "spts: --analysis-rows is 1, 2, 4 or 8 (got %d)\n", o->analysis_rows);
        ok = false;
      }
    } else if (name == "--backoff") ok = gio_app::to_int("spts", n, v, 0, &o->backoff_ns);
    else if (name == "--analysis-backoff") ok = gio_app::to_int("spts", n, v, 0, &o->analysis_backoff_ns);
    else if (name == "--timeout") ok = gio_app::to_positive("spts", n, v, &o->timeout_s);
    else if (name == "--json") o->json = value;
    else if (name == "--matrix") o->matrix = value;
    else if (name == "--gen") o->gen = value;
    else if (name == "--cache") o->cache = value;
    else if (name == "--seed") {
      errno = 0;
      char* end = nullptr;
      o->seed = std::strtoull(v, &end, 10);
      if (errno || end == v || *end) {
        std::fprintf(stderr, "spts: --seed needs an unsigned integer (got \"%s\")\n", v);
        ok = false;
      }
    } else if (name == "--type") {
      const char* const names[] = {"double", "float"};
      const bool vals[] = {true, false};
      ok = to_enum(n, value, names, vals, &o->dbl);
    } else if (name == "--variant") {
      const char* const names[] = {"gio", "levelset", "single", "cusparse", "ikn"};
      const variant vals[] = {variant::gio, variant::levelset, variant::single, variant::cusparse,
                              variant::ikn};
      o->vars.clear();
      for (size_t at = 0; ok;) {
        const size_t comma = value.find(',', at);
        ok = to_enum(n, value.substr(at, comma - at), names, vals, &o->var);
        if (ok) o->vars.push_back(o->var);
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
    } else if (name == "--exchange") {
      const char* const names[] = {"signal", "atomic", "queue", "store", "auto"};
      const exchange vals[] = {exchange::signal, exchange::atomic, exchange::queue, exchange::store,
                               exchange::automatic};
      ok = to_enum(n, value, names, vals, &o->xchg);
    } else if (name == "--kernel") {
      const char* const names[] = {"auto", "thread", "warp"};
      const kernel_kind vals[] = {kernel_kind::automatic, kernel_kind::thread, kernel_kind::warp};
      ok = to_enum(n, value, names, vals, &o->kernel);
    } else if (name == "--order") {
      const char* const names[] = {"natural", "random"};
      const order vals[] = {order::natural, order::random};
      ok = to_enum(n, value, names, vals, &o->ord);
    } else if (name == "--diag") {
      const char* const names[] = {"given", "unit", "dominant"};
      const diag_mode vals[] = {diag_mode::given, diag_mode::unit, diag_mode::dominant};
      ok = to_enum(n, value, names, vals, &o->diag);
    } else if (name == "--rows") {
      const char* const names[] = {"level", "natural", "senders"};
      const row_order vals[] = {row_order::level, row_order::natural, row_order::senders};
      ok = to_enum(n, value, names, vals, &o->rows);
    } else if (name == "--renumber") {
      ok = to_enum(n, value, kRenumberNames, kRenumberKinds, &o->renumber);
    } else if (name == "--analysis") {
      const char* const names[] = {"device", "host", "compare"};
      const analysis_where vals[] = {analysis_where::device, analysis_where::host, analysis_where::compare};
      ok = to_enum(n, value, names, vals, &o->analysis);
    } else if (name == "--chunk-deps") {
      const char* const names[] = {"shared", "global"};
      const bool vals[] = {true, false};
      ok = to_enum(n, value, names, vals, &o->chunk_shared);
    } else if (name == "--balance") {
      const char* const names[] = {"rows", "nnz"};
      const bool vals[] = {false, true};
      ok = to_enum(n, value, names, vals, &o->by_nnz);
    } else {
      std::fprintf(stderr, "spts: unknown option \"%s\" (see --help)\n", n);
      ok = false;
    }
    if (!ok) return false;
  }
  // The transport is chosen once, at shmem_init, for the whole run: gio or levelset next to ikn
  // would run over the proxy too and be reported as what they are not.
  const auto has = [&](variant v) { return std::find(o->vars.begin(), o->vars.end(), v) != o->vars.end(); };
  for (variant v : o->vars)
    if (o->probe_ready && v != variant::gio && v != variant::ikn) {
      std::fprintf(stderr, "spts: --probe-remote-ready times the distributed sync-free solve (gio, ikn), not "
                           "--variant %s\n", variant_name(v));
      return false;
    }
  if (has(variant::ikn) && (has(variant::gio) || has(variant::levelset))) {
    std::fprintf(stderr, "spts: --variant ikn cannot share a run with gio or levelset (GIO_TRANSPORT is "
                         "chosen once per run); run them separately\n");
    return false;
  }
  return true;
}

}  // namespace spts
