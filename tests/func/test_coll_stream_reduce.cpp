// Stream-ordered reductions (shmemx_TYPE_OP_reduce_on_stream): int max, int32 and, long sum (a
// signed sum folded as unsigned), short min, uint8 xor, float sum, double prod and complex sums
// and products, at 0, 1, 7, 16 and 4097 elements; dest and source at offsets that give the
// kernels' vector, element-store and scalar paths; in place; and back-to-back reductions on one
// stream that rewrite the source and poison dest between rounds (a member reads every source,
// so the exit sync must hold each source until every member is done with it); calls many times the
// push reduction's chunk, and back-to-back calls of changing sizes (flags reused across calls).
//
// Where PEs share a GPU (pes_share_gpu), each call's waits on the other members' kernels and each
// staged copy wait for time slices, so the cases of many calls take fewer there: each type's small
// counts one shape each (by turns; 4097 elements still all three), and the calls past one chunk at
// 20011 elements only, with the int8 sum and the complexd sum in every shape and the others by turns.
#include <complex>
#include <string>

#include "gio_test.h"

using namespace giotest;

namespace {

const size_t kCounts[] = {0, 1, 7, 16, 4097};

// Fewer calls where PEs share a GPU (the header says why).
bool lean() {
  static const bool l = pes_share_gpu();
  return l;
}

struct stream_guard {
  hipStream_t s = nullptr;
  stream_guard() { EXPECT_EQ(hipStreamCreate(&s), hipSuccess); }
  ~stream_guard() { (void)hipStreamDestroy(s); }
};

enum class op { band, bxor, max, min, sum, prod };

// Small values, so no sum or product of 4 members overflows or rounds, whatever the type.
template <typename T>
T value(op o, int k, size_t i) {
  switch (o) {
    case op::band: case op::bxor: return (T)((1u << ((k + i) % 7)) | ((i * 5) % 64) | (k == 1 ? 3u : 0u));
    case op::max: case op::min: return (T)((int)((k * 29 + i * 13) % 101) - 50 * (int)std::is_signed<T>::value);
    case op::sum: return (T)((k + 1) * (int)(i % 5 + 1));
    default: return (T)(1 + ((k + i) % 3 == 0));
  }
}
template <typename T>
T combine(op o, T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (o == op::band) return (T)(a & b);
    if (o == op::bxor) return (T)(a ^ b);
  }
  switch (o) {
    case op::max: return a < b ? b : a;
    case op::min: return b < a ? b : a;
    case op::sum: return (T)(a + b);
    default: return (T)(a * b);
  }
}
template <typename F>
std::complex<F> cvalue(op o, int k, size_t i) {
  return o == op::sum ? std::complex<F>(F(k + 1), F(i % 4)) : std::complex<F>(F(1 + (k + i) % 2), F((k * i) % 2));
}
template <typename T, bool = std::is_arithmetic<T>::value>
struct vals {
  static T at(op o, int k, size_t i) { return value<T>(o, k, i); }
  static T fold(op o, T a, T b) { return combine(o, a, b); }
};
template <typename T>
struct vals<T, false> {  // std::complex
  static T at(op o, int k, size_t i) { return cvalue<typename T::value_type>(o, k, i); }
  static T fold(op o, T a, T b) { return o == op::sum ? a + b : a * b; }
};

// One reduction of `count` elements: source `soff` bytes into a symmetric block, dest `doff`
// bytes into another (multiples of T's alignment; the same on every PE), or in place.
template <typename T>
void check(const char* name, op o, int (*fn)(shmem_team_t, T*, const T*, size_t, gio_stream_t), size_t count,
           size_t soff, size_t doff, bool in_place, hipStream_t s, const sym<uint8_t>& src, const sym<uint8_t>& dst) {
  const int n = npes();
  const size_t bytes = count * sizeof(T);
  std::vector<T> mine(count), want(count);
  for (size_t i = 0; i < count; ++i) {
    mine[i] = vals<T>::at(o, me(), i);
    want[i] = vals<T>::at(o, 0, i);
    for (int k = 1; k < n; ++k) want[i] = vals<T>::fold(o, want[i], vals<T>::at(o, k, i));
  }
  T* sp = (T*)(src.get() + soff);
  T* dp = in_place ? sp : (T*)(dst.get() + doff);
  src.fill_bytes(0xa5);
  dst.fill_bytes(0xa5);
  HIP_OK(hipMemcpy(sp, mine.data(), bytes, hipMemcpyHostToDevice));
  shmem_barrier_all();
  const std::string what = std::string(name) + ": " + std::to_string(count) + " elements, source +" +
                           std::to_string(soff) + (in_place ? " in place" : ", dest +" + std::to_string(doff));
  ASSERT_EQ(fn(SHMEM_TEAM_WORLD, dp, sp, count, s), 0) << what;
  HIP_OK(hipStreamSynchronize(s));
  std::vector<T> got(count);
  HIP_OK(hipMemcpy(got.data(), dp, bytes, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < count; ++i) ASSERT_EQ(got[i], want[i]) << what << ", element " << i;
  if (!in_place) {
    std::vector<T> left(count);
    HIP_OK(hipMemcpy(left.data(), sp, bytes, hipMemcpyDeviceToHost));
    EXPECT_EQ(left, mine) << what << ": source changed";
    const std::vector<uint8_t> whole = dst.read();  // the bytes around dest keep their poison
    for (size_t i = 0; i < bytes + 64; ++i)
      if (i < doff || i >= doff + bytes) ASSERT_EQ(whole[i], 0xa5) << what << ": byte " << i << " outside dest written";
  }
  shmem_barrier_all();  // no member still reads the buffers the next case poisons
}

// Offsets in units of T's alignment: 0/0 gives vectors; 1/3 a dest misaligned against the source
// (element stores), and for a 16-byte complex at an 8-byte address the element-by-element fold.
template <typename T>
void every_shape(const char* name, op o, int (*fn)(shmem_team_t, T*, const T*, size_t, gio_stream_t)) {
  stream_guard st;
  const size_t a = alignof(T), most = kCounts[sizeof kCounts / sizeof kCounts[0] - 1] * sizeof(T) + 64;
  const sym<uint8_t> src(most), dst(most);
  int turn = 0;
  for (size_t count : kCounts) {
    // Where PEs share a GPU, the shape of this count's turn (4097: all three).
    const bool all = !lean() || count == 4097;
    const int shape = turn++ % 3;
    if (all || shape == 0) check<T>(name, o, fn, count, 0, 0, false, st.s, src, dst);
    if (all || shape == 1) check<T>(name, o, fn, count, a, 3 * a, false, st.s, src, dst);
    if (all || shape == 2) check<T>(name, o, fn, count, a, 0, true, st.s, src, dst);
  }
}

}  // namespace

TEST(CollStreamReduce, Integers) {
  every_shape<int>("shmemx_int_max_reduce_on_stream", op::max, shmemx_int_max_reduce_on_stream);
  every_shape<int32_t>("shmemx_int32_and_reduce_on_stream", op::band, shmemx_int32_and_reduce_on_stream);
  every_shape<long>("shmemx_long_sum_reduce_on_stream", op::sum, shmemx_long_sum_reduce_on_stream);
  every_shape<short>("shmemx_short_min_reduce_on_stream", op::min, shmemx_short_min_reduce_on_stream);
  every_shape<uint8_t>("shmemx_uint8_xor_reduce_on_stream", op::bxor, shmemx_uint8_xor_reduce_on_stream);
}

TEST(CollStreamReduce, FloatingAndComplex) {
  every_shape<float>("shmemx_float_sum_reduce_on_stream", op::sum, shmemx_float_sum_reduce_on_stream);
  every_shape<double>("shmemx_double_prod_reduce_on_stream", op::prod, shmemx_double_prod_reduce_on_stream);
  every_shape<std::complex<double>>("shmemx_complexd_sum_reduce_on_stream", op::sum,
                                    shmemx_complexd_sum_reduce_on_stream);
  every_shape<std::complex<float>>("shmemx_complexf_prod_reduce_on_stream", op::prod,
                                   shmemx_complexf_prod_reduce_on_stream);
}

// Past one chunk of the push reduction's slots (ctest's push runs set GIO_COLL_REDUCE_SCRATCH=16K:
// chunks of a few hundred bytes, so one call goes many times round every slot ring and most slices
// end in a partial chunk): odd counts of 1- and 16-byte types, in place and with a dest misaligned
// against the source. On other runs, the same over the default scratch or the pull.
TEST(CollStreamReduce, ManyChunks) {
  stream_guard st;
  const size_t counts[] = {20011, 65537};
  const sym<uint8_t> src(65537 * 16 + 64), dst(65537 * 16 + 64);
  // Where PEs share a GPU and a member is not over p2p, the reduction gathers 2 KiB pieces with
  // gets, each a round trip that waits for time slices: there the complex types take an eighth of
  // the count and the double a quarter, 3 to 5 pieces a member at 4 PEs (as 20011 bytes of int8),
  // the last one partial.
  bool p2p = true;
  for (int p = 0; p < npes(); ++p) p2p &= std::string(shmemx_transport_name(p)) == "p2p";
  const bool few = lean() && !p2p;
  for (size_t count : counts) {
    if (lean() && count != counts[0]) continue;
    for (int shape = 0; shape < 3; ++shape) {
      const size_t soff = shape ? 16 : 0, doff = shape == 1 ? 24 : 0;
      const bool in_place = shape == 2;
      // Where PEs share a GPU, one of the int8 max, the complexf product and the double sum a shape.
      auto turn = [shape](int k) { return !lean() || shape == k; };
      check<int8_t>("shmemx_int8_sum_reduce_on_stream", op::sum, shmemx_int8_sum_reduce_on_stream, count, soff,
                    doff + 1, in_place, st.s, src, dst);
      if (turn(0))
        check<int8_t>("shmemx_int8_max_reduce_on_stream", op::max, shmemx_int8_max_reduce_on_stream, count, soff, doff,
                      in_place, st.s, src, dst);
      check<std::complex<double>>("shmemx_complexd_sum_reduce_on_stream", op::sum,
                                  shmemx_complexd_sum_reduce_on_stream, count / (few ? 8 : 1), soff, doff, in_place,
                                  st.s, src, dst);
      if (turn(1))
        check<std::complex<float>>("shmemx_complexf_prod_reduce_on_stream", op::prod,
                                   shmemx_complexf_prod_reduce_on_stream, count / (few ? 8 : 4), soff, doff, in_place,
                                   st.s, src, dst);
      if (turn(2))
        check<double>("shmemx_double_sum_reduce_on_stream", op::sum, shmemx_double_sum_reduce_on_stream,
                      count / (few ? 4 : 1), soff, doff, in_place, st.s, src, dst);
    }
  }
}

// Reductions of changing sizes, types and shapes queued on one stream with no host wait between
// them: each push call runs a different number of work-groups and chunks per slice over the same
// flags and slots, which only the call number in the flags and the syncs around each call keep
// apart; the 5-element call takes LL, which must leave the push's flags as they are.
TEST(CollStreamReduce, BackToBackSizes) {
  stream_guard st;
  const int n = npes();
  const size_t counts[] = {30011, 5, 1001, 65536, 30011, 3, 47};
  const int rounds = (int)(sizeof counts / sizeof counts[0]);
  const size_t most = 65536;
  sym<float> src(most), dst(most);
  sym<int8_t> bsrc(most), bdst(most);
  std::vector<std::vector<float>> in(rounds), out(rounds);
  std::vector<std::vector<int8_t>> bin(rounds), bout(rounds);
  for (int r = 0; r < rounds; ++r) {
    in[r].resize(counts[r]), out[r].resize(counts[r]), bin[r].resize(counts[r]), bout[r].resize(counts[r]);
    for (size_t i = 0; i < counts[r]; ++i) {
      in[r][i] = (float)((me() + 1) * (r + 1) + (int)(i % 17));
      bin[r][i] = (int8_t)((me() * 37 + r * 11 + (int)(i % 29)) % 120 - 60);
    }
  }
  shmem_barrier_all();
  for (int r = 0; r < rounds; ++r) {
    const size_t c = counts[r];
    const bool in_place = r % 2 == 1;
    float* d = in_place ? src.get() : dst.get();
    HIP_OK(hipMemcpyAsync(src.get(), in[r].data(), c * sizeof(float), hipMemcpyHostToDevice, st.s));
    if (!in_place) HIP_OK(hipMemsetAsync(dst.get(), 0xff, c * sizeof(float), st.s));
    ASSERT_EQ(shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, d, src.get(), c, st.s), 0);
    HIP_OK(hipMemcpyAsync(out[r].data(), d, c * sizeof(float), hipMemcpyDeviceToHost, st.s));
    HIP_OK(hipMemcpyAsync(bsrc.get(), bin[r].data(), c, hipMemcpyHostToDevice, st.s));
    HIP_OK(hipMemsetAsync(bdst.get(), 0x7f, c, st.s));
    ASSERT_EQ(shmemx_int8_max_reduce_on_stream(SHMEM_TEAM_WORLD, bdst.get(), bsrc.get(), c, st.s), 0);
    HIP_OK(hipMemcpyAsync(bout[r].data(), bdst.get(), c, hipMemcpyDeviceToHost, st.s));
  }
  HIP_OK(hipStreamSynchronize(st.s));
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < counts[r]; ++i) {
      float want = 0;
      int8_t bwant = -128;
      for (int k = 0; k < n; ++k) {
        want += (float)((k + 1) * (r + 1) + (int)(i % 17));
        const int8_t b = (int8_t)((k * 37 + r * 11 + (int)(i % 29)) % 120 - 60);
        if (b > bwant) bwant = b;
      }
      ASSERT_EQ(out[r][i], want) << "round " << r << " (" << counts[r] << " floats), element " << i;
      ASSERT_EQ(bout[r][i], bwant) << "round " << r << " (" << counts[r] << " int8), element " << i;
    }
  shmem_barrier_all();
}

// Rounds queued on one stream: rewrite the source, poison dest, reduce, keep a copy.
TEST(CollStreamReduce, BackToBack) {
  stream_guard st;
  const int n = npes(), rounds = 4;
  const size_t count = 3001;
  sym<float> src(count), dst(count);
  std::vector<std::vector<float>> in(rounds, std::vector<float>(count)), out(rounds, std::vector<float>(count));
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < count; ++i) in[r][i] = (float)((me() + 1) * (r + 1) + (int)(i % 17));
  shmem_barrier_all();
  for (int r = 0; r < rounds; ++r) {
    HIP_OK(hipMemcpyAsync(src.get(), in[r].data(), count * sizeof(float), hipMemcpyHostToDevice, st.s));
    HIP_OK(hipMemsetAsync(dst.get(), 0xff, count * sizeof(float), st.s));
    ASSERT_EQ(shmemx_float_sum_reduce_on_stream(SHMEM_TEAM_WORLD, dst.get(), src.get(), count, st.s), 0);
    HIP_OK(hipMemcpyAsync(out[r].data(), dst.get(), count * sizeof(float), hipMemcpyDeviceToHost, st.s));
  }
  HIP_OK(hipStreamSynchronize(st.s));
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < count; ++i) {
      float want = 0;
      for (int k = 0; k < n; ++k) want += (float)((k + 1) * (r + 1) + (int)(i % 17));
      ASSERT_EQ(out[r][i], want) << "round " << r << ", element " << i;
    }
  shmem_barrier_all();
}
