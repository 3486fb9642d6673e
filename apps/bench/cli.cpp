// Command line: one subcommand, uniform flags. Defaults depend on the subcommand, --quick shrinks
// them for CI, and any flag given explicitly wins over both.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "bench.h"
#include "coll_spec.h"

namespace bench {

const char* scope_name(scope_t s) {
  switch (s) {
    case scope_t::thread: return "thread";
    case scope_t::wave: return "wave";
    case scope_t::stream: return "stream";
    default: return "wg";
  }
}

std::vector<size_t> options::sizes() const {
  std::vector<size_t> v;
  for (size_t s = min_size; s <= max_size; s *= step) {
    v.push_back(s);
    if (s > max_size / step) break;  // the next step would overflow
  }
  return v;
}

void print_usage(const char* prog) {
  printf(
      "usage: giorun -n 2 %s <put_latency|bw|msgrate|loggop|coll|strided|callcost> [flags]\n"
      "  --scope thread,wave,wg   scopes to measure (list; --scopes too); coll also takes stream: the\n"
      "                           host enqueues shmemx_*_on_stream (nvshmemx_*_on_stream) on a stream\n"
      "  --min-size N --max-size N  message sizes, powers of --step from min to max (K/M/G ok)\n"
      "  --step F                 size multiplier (default 2)\n"
      "  --wgs 1,2,4              work-groups posting at once, each with its own context (not loggop)\n"
      "  --threads N              threads per work-group (wg scope; every scope in bw/msgrate)\n"
      "  --iters N --warmup N     timed and untimed iterations per sample\n"
      "  --reps N                 samples (launches, at least 3): median, min and max reported\n"
      "  --train N                loggop: messages per train\n"
      "  --bidir                  bw/msgrate: both directions at once\n"
      "  --pair A,B               measured PEs (default 0,1); A reports. put_latency --pair A,A: A puts to\n"
      "                           its own heap through the transport (put_nbi_quiet only; runs at 1 PE)\n"
      "  --ops barrier,broadcast,fcollect,alltoall,reduce\n"
      "                           coll: the collectives, over all PEs (size = one PE's contribution)\n"
      "  --cube N --region N      strided: the cube's edge (1024) and the region moved (1M), bytes, powers of 2;\n"
      "                           --wgs (32) work-groups of --threads; --pair A,A or one PE: into itself\n"
      "  callcost                 cycles per put_nbi call against the same scope's raw stores (8 B..4 KiB);\n"
      "                           --pair A,A or one PE: into its own heap\n"
      "  --json FILE              JSON lines (one measurement each), written by PE A (coll: PE 0)\n"
      "  --quick                  tiny sizes and iteration counts (CI)\n"
      "The transport is GIO's choice (GIO_TRANSPORT=auto|p2p|...); it is recorded, not set.\n",
      prog);
}

namespace {

bool parse_size(const std::string& s, size_t* out) {
  char* end = nullptr;
  unsigned long long v = strtoull(s.c_str(), &end, 10);
  if (end == s.c_str()) return false;
  std::string suf(end);
  if (suf == "K" || suf == "k" || suf == "KiB") v <<= 10;
  else if (suf == "M" || suf == "MiB") v <<= 20;
  else if (suf == "G" || suf == "GiB") v <<= 30;
  else if (!suf.empty()) return false;
  *out = (size_t)v;
  return true;
}

bool parse_int(const std::string& s, int lo, int* out) {
  char* end = nullptr;
  long v = strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end || v < lo || v > (1l << 30)) return false;
  *out = (int)v;
  return true;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

void set_defaults(options* o) {
  o->scopes = {scope_t::thread, scope_t::wave, scope_t::wg};
  o->wgs = {1};
  o->iters = 200, o->warmup = 20, o->reps = 5;
  o->ops = {coll_op::barrier, coll_op::broadcast, coll_op::fcollect, coll_op::alltoall, coll_op::reduce};
  if (o->bench == "bw" || o->bench == "msgrate") {
    o->wgs = {1, 8, 32};
    o->iters = 100, o->warmup = 10;
    if (o->bench == "bw") o->max_size = 256u << 20;
  } else if (o->bench == "loggop") {
    o->scopes = {scope_t::thread};
    o->iters = 50, o->warmup = 5;
    // One thread moves each message: at 4 MiB a p2p run outlasted 60 s on 2xH200 and G is linear
    // well before 64 KiB.
    o->max_size = 64u << 10;
  } else if (o->bench == "coll") {
    // Floats: 8 B is two of them. --iters is an upper bound there (see coll.cpp).
    o->min_size = 8, o->max_size = 256u << 20;
    o->iters = 100, o->warmup = 10;
  }
  if (o->bench == "strided") {
    o->wgs = {32};
    o->iters = 20, o->reps = 5;
  }
  if (o->bench == "callcost") {  // 8 B .. 4 KiB; many calls per sample, each a few hundred cycles
    o->min_size = 8, o->max_size = 4096;
    o->iters = 1000, o->warmup = 100;
  }
  if (o->quick) {
    o->min_size = 1, o->max_size = 4096, o->step = 16;
    o->wgs = {1, 2};  // loggop ignores --wgs: it measures one work-group
    o->threads = 32;
    o->iters = 10, o->warmup = 2, o->reps = 3, o->train = 4;
    if (o->bench == "coll") o->min_size = 8, o->step = 8;  // 8 B .. 4 KiB: one size with bandwidth
    if (o->bench == "strided") o->cube = 16, o->region = 256, o->wgs = {2}, o->iters = 3;
    if (o->bench == "callcost") o->min_size = 8, o->max_size = 512, o->step = 8;
  }
}

}  // namespace

bool parse_options(int argc, char** argv, options* o, std::string* err) {
  if (argc < 2) return *err = "no subcommand", false;
  o->bench = argv[1];
  if (o->bench != "put_latency" && o->bench != "bw" && o->bench != "msgrate" && o->bench != "loggop" &&
      o->bench != "coll" && o->bench != "strided" && o->bench != "callcost")
    return *err = "unknown subcommand '" + o->bench + "'", false;
  // Flags are collected first so --quick can set defaults that explicit flags then override.
  std::map<std::string, std::string> given;
  for (int i = 2; i < argc; ++i) {
    std::string f = argv[i];
    if (f == "--quick") o->quick = true;
    else if (f == "--bidir") o->bidir = true;
    else if (f.rfind("--", 0) == 0 && i + 1 < argc) given[f] = argv[++i];
    else return *err = "unknown or incomplete flag '" + f + "'", false;
  }
  set_defaults(o);
  for (auto& kv : given) {
    const std::string& f = kv.first;
    const std::string& v = kv.second;
    bool ok = true;
    if (f == "--scope" || f == "--scopes") {
      o->scopes.clear();
      for (auto& s : split(v)) {
        if (s == "thread") o->scopes.push_back(scope_t::thread);
        else if (s == "wave" || s == "warp") o->scopes.push_back(scope_t::wave);
        else if (s == "wg" || s == "block") o->scopes.push_back(scope_t::wg);
        else if (s == "stream" && o->bench == "coll") o->scopes.push_back(scope_t::stream);
        else ok = false;
      }
      ok = ok && !o->scopes.empty();
    } else if (f == "--ops") {
      o->ops.clear();
      for (auto& s : split(v)) {
        coll_op op = coll_op::barrier;
        ok = ok && coll_op_parse(s, &op);
        o->ops.push_back(op);
      }
      ok = ok && !o->ops.empty();
    } else if (f == "--min-size") ok = parse_size(v, &o->min_size);
    else if (f == "--max-size") ok = parse_size(v, &o->max_size);
    else if (f == "--step") {
      int st = 0;
      ok = parse_int(v, 2, &st);
      o->step = (unsigned)st;
    } else if (f == "--wgs") {
      o->wgs.clear();
      for (auto& s : split(v)) {
        int n = 0;
        ok = ok && parse_int(s, 1, &n);
        o->wgs.push_back(n);
      }
      ok = ok && !o->wgs.empty();
    } else if (f == "--threads") ok = parse_int(v, 1, &o->threads) && o->threads <= 1024;
    else if (f == "--iters") ok = parse_int(v, 1, &o->iters);
    else if (f == "--warmup") ok = parse_int(v, 0, &o->warmup);
    else if (f == "--reps") ok = parse_int(v, 3, &o->reps);  // a median needs a spread
    else if (f == "--train") ok = parse_int(v, 2, &o->train);
    else if (f == "--json") o->json = v;
    else if (f == "--cube") ok = parse_size(v, &o->cube);
    else if (f == "--region") ok = parse_size(v, &o->region);
    else if (f == "--pair") {
      auto p = split(v);
      ok = p.size() == 2 && parse_int(p[0], 0, &o->pair_a) && parse_int(p[1], 0, &o->pair_b);
    } else return *err = "unknown flag '" + f + "'", false;
    if (!ok) return *err = "bad value '" + v + "' for " + f, false;
  }
  if (o->min_size > o->max_size) return *err = "--min-size is larger than --max-size", false;
  if (o->bench == "coll" && (given.count("--pair") || o->bidir))
    return *err = "coll takes no --pair or --bidir: every PE takes part", false;
  if (o->bench == "coll" && (o->min_size < 4 || o->min_size % 4))
    return *err = "coll moves floats: --min-size must be a multiple of 4", false;
  if (o->pair_a == o->pair_b && o->bench != "put_latency" && o->bench != "strided" && o->bench != "callcost")
    return *err = "--pair A,A (a PE targeting itself) is for put_latency, strided and callcost only", false;
  if (o->bench == "strided") {
    auto pow2 = [](size_t v) { return v && !(v & (v - 1)); };
    if (!pow2(o->cube) || !pow2(o->region) || o->region > o->cube * o->cube * o->cube)
      return *err = "strided: --cube and --region must be powers of two, the region no larger than the cube", false;
  }
  if (o->bench != "loggop" && o->min_size == 0)
    return *err = "--min-size must be at least 1 (loggop measures 0 bytes itself)", false;
  if (o->min_size == 0) o->min_size = 1;
  return true;
}

}  // namespace bench
