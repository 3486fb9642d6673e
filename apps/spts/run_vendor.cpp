// The vendor's triangular solve as a reference: cusparseSpSV on cuda, rocsparse_spsv on hip, both
// through the generic API on the whole L in CSR (lower, non-unit diagonal, default algorithm).
// prep_s is the buffer-size query, the buffer's allocation and the analysis; each repetition times
// only the solve, with the device synchronized before and after. The library handle is created
// before any timing (its first creation initializes the library: a cost no solve pays).
#include <shmem.h>  // the hip* runtime names on every platform (cuda: mapped onto cuda*)

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "runs.h"

#if defined(GIO_PLATFORM_CUDA)
#include <cusparse.h>
#elif defined(GIO_PLATFORM_HIP)
#include <rocsparse/rocsparse.h>
#endif

namespace spts {

#if defined(GIO_PLATFORM_HOST)

bool vendor_available(std::string* why) {
  *why = "no vendor sparse library on the host platform (cusparse on cuda, rocsparse on hip)";
  return false;
}

template <typename T>
solve_times run_vendor(const problem&, const options&, std::vector<double>*) {
  std::string why;
  vendor_available(&why);
  std::fprintf(stderr, "spts: run_vendor: %s\n", why.c_str());
  shmem_global_exit(1);
  std::abort();  // not reached: shmem_global_exit ends the job
}

#else

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void fail(const char* call, const char* what) {
  std::fprintf(stderr, "spts: vendor solve: %s failed: %s\n", call, what);
  shmem_global_exit(1);
  std::abort();
}

#define VENDOR_GPU_CHECK(call)                                \
  do {                                                        \
    hipError_t e_ = (call);                                   \
    if (e_ != hipSuccess) fail(#call, hipGetErrorString(e_)); \
  } while (0)

// L, b and x on the device, in the solve's type T.
template <typename T>
struct device_system {
  int32_t n = 0;
  int64_t nnz = 0;
  int32_t *row_ptr = nullptr, *col = nullptr;
  T *val = nullptr, *b = nullptr, *x = nullptr;

  device_system(const csr& l, const std::vector<double>& b_host) : n(l.n), nnz(l.nnz()) {
    const std::vector<T> val_t(l.val.begin(), l.val.end());
    const std::vector<T> b_t(b_host.begin(), b_host.end());
    VENDOR_GPU_CHECK(hipMalloc((void**)&row_ptr, (n + 1) * sizeof(int32_t)));
    VENDOR_GPU_CHECK(hipMalloc((void**)&col, nnz * sizeof(int32_t)));
    VENDOR_GPU_CHECK(hipMalloc((void**)&val, nnz * sizeof(T)));
    VENDOR_GPU_CHECK(hipMalloc((void**)&b, n * sizeof(T)));
    VENDOR_GPU_CHECK(hipMalloc((void**)&x, n * sizeof(T)));
    VENDOR_GPU_CHECK(hipMemcpy(row_ptr, l.row_ptr.data(), (n + 1) * sizeof(int32_t), hipMemcpyHostToDevice));
    VENDOR_GPU_CHECK(hipMemcpy(col, l.col.data(), nnz * sizeof(int32_t), hipMemcpyHostToDevice));
    VENDOR_GPU_CHECK(hipMemcpy(val, val_t.data(), nnz * sizeof(T), hipMemcpyHostToDevice));
    VENDOR_GPU_CHECK(hipMemcpy(b, b_t.data(), n * sizeof(T), hipMemcpyHostToDevice));
    VENDOR_GPU_CHECK(hipMemset(x, 0, n * sizeof(T)));
  }
  ~device_system() {  // (void): a failed free at the end changes nothing the run reports
    for (void* p : {(void*)row_ptr, (void*)col, (void*)val, (void*)b, (void*)x}) (void)hipFree(p);
  }
  device_system(const device_system&) = delete;
  device_system& operator=(const device_system&) = delete;
};

#if defined(GIO_PLATFORM_CUDA)

#define VENDOR_SPARSE_CHECK(call)                                               \
  do {                                                                          \
    cusparseStatus_t s_ = (call);                                               \
    if (s_ != CUSPARSE_STATUS_SUCCESS) fail(#call, cusparseGetErrorString(s_)); \
  } while (0)

template <typename T>
constexpr cudaDataType value_type() {
  return sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
}

// One system's cusparseSpSV: descriptors at construction, prepare() once, solve() per repetition.
template <typename T>
class vendor_solver {
 public:
  explicit vendor_solver(device_system<T>& s) {
    VENDOR_SPARSE_CHECK(cusparseCreate(&handle_));
    VENDOR_SPARSE_CHECK(cusparseCreateCsr(&mat_, s.n, s.n, s.nnz, s.row_ptr, s.col, s.val, CUSPARSE_INDEX_32I,
                                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, value_type<T>()));
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
    VENDOR_SPARSE_CHECK(cusparseSpMatSetAttribute(mat_, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    VENDOR_SPARSE_CHECK(cusparseSpMatSetAttribute(mat_, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    VENDOR_SPARSE_CHECK(cusparseCreateDnVec(&b_, s.n, s.b, value_type<T>()));
    VENDOR_SPARSE_CHECK(cusparseCreateDnVec(&x_, s.n, s.x, value_type<T>()));
    VENDOR_SPARSE_CHECK(cusparseSpSV_createDescr(&spsv_));
  }
  ~vendor_solver() {
    cusparseSpSV_destroyDescr(spsv_);
    cusparseDestroyDnVec(x_);
    cusparseDestroyDnVec(b_);
    cusparseDestroySpMat(mat_);
    cusparseDestroy(handle_);
    (void)hipFree(buffer_);
  }
  vendor_solver(const vendor_solver&) = delete;
  vendor_solver& operator=(const vendor_solver&) = delete;

  void prepare() {
    VENDOR_SPARSE_CHECK(cusparseSpSV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, b_,
                                                x_, value_type<T>(), CUSPARSE_SPSV_ALG_DEFAULT, spsv_,
                                                &buffer_bytes_));
    VENDOR_GPU_CHECK(hipMalloc(&buffer_, buffer_bytes_ ? buffer_bytes_ : 1));
    VENDOR_SPARSE_CHECK(cusparseSpSV_analysis(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, b_, x_,
                                              value_type<T>(), CUSPARSE_SPSV_ALG_DEFAULT, spsv_, buffer_));
  }
  void solve() {
    VENDOR_SPARSE_CHECK(cusparseSpSV_solve(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, mat_, b_, x_,
                                           value_type<T>(), CUSPARSE_SPSV_ALG_DEFAULT, spsv_));
  }
  static const char* name() { return "cusparseSpSV CSR, CUSPARSE_SPSV_ALG_DEFAULT"; }
  size_t buffer_bytes() const { return buffer_bytes_; }

 private:
  const T one_ = 1;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t mat_ = nullptr;
  cusparseDnVecDescr_t b_ = nullptr, x_ = nullptr;
  cusparseSpSVDescr_t spsv_ = nullptr;
  void* buffer_ = nullptr;
  size_t buffer_bytes_ = 0;
};

#elif defined(GIO_PLATFORM_HIP)

// rocSPARSE 5.x has no status-to-text routine.
const char* rocsparse_status_text(rocsparse_status s) {
  switch (s) {
    case rocsparse_status_success: return "success";
    case rocsparse_status_invalid_handle: return "invalid handle";
    case rocsparse_status_not_implemented: return "not implemented";
    case rocsparse_status_invalid_pointer: return "invalid pointer";
    case rocsparse_status_invalid_size: return "invalid size";
    case rocsparse_status_memory_error: return "memory error";
    case rocsparse_status_internal_error: return "internal error";
    case rocsparse_status_invalid_value: return "invalid value";
    case rocsparse_status_arch_mismatch: return "device architecture not supported";
    case rocsparse_status_zero_pivot: return "zero pivot";
    case rocsparse_status_not_initialized: return "descriptor not initialized";
    case rocsparse_status_type_mismatch: return "index types do not match";
    case rocsparse_status_requires_sorted_storage: return "sorted storage required";
    default: return "unknown rocsparse status";
  }
}

#define VENDOR_SPARSE_CHECK(call)                                               \
  do {                                                                          \
    rocsparse_status s_ = (call);                                               \
    if (s_ != rocsparse_status_success) fail(#call, rocsparse_status_text(s_)); \
  } while (0)

template <typename T>
constexpr rocsparse_datatype value_type() {
  return sizeof(T) == 4 ? rocsparse_datatype_f32_r : rocsparse_datatype_f64_r;
}

// One system's rocsparse_spsv: descriptors at construction, prepare() (the buffer_size and
// preprocess stages) once, solve() (the compute stage) per repetition.
template <typename T>
class vendor_solver {
 public:
  explicit vendor_solver(device_system<T>& s) {
    VENDOR_SPARSE_CHECK(rocsparse_create_handle(&handle_));
    VENDOR_SPARSE_CHECK(rocsparse_create_csr_descr(&mat_, s.n, s.n, s.nnz, s.row_ptr, s.col, s.val,
                                                   rocsparse_indextype_i32, rocsparse_indextype_i32,
                                                   rocsparse_index_base_zero, value_type<T>()));
    rocsparse_fill_mode fill = rocsparse_fill_mode_lower;
    rocsparse_diag_type diag = rocsparse_diag_type_non_unit;
    VENDOR_SPARSE_CHECK(rocsparse_spmat_set_attribute(mat_, rocsparse_spmat_fill_mode, &fill, sizeof fill));
    VENDOR_SPARSE_CHECK(rocsparse_spmat_set_attribute(mat_, rocsparse_spmat_diag_type, &diag, sizeof diag));
    VENDOR_SPARSE_CHECK(rocsparse_create_dnvec_descr(&b_, s.n, s.b, value_type<T>()));
    VENDOR_SPARSE_CHECK(rocsparse_create_dnvec_descr(&x_, s.n, s.x, value_type<T>()));
  }
  ~vendor_solver() {
    rocsparse_destroy_dnvec_descr(x_);
    rocsparse_destroy_dnvec_descr(b_);
    rocsparse_destroy_spmat_descr(mat_);
    rocsparse_destroy_handle(handle_);
    (void)hipFree(buffer_);
  }
  vendor_solver(const vendor_solver&) = delete;
  vendor_solver& operator=(const vendor_solver&) = delete;

  void prepare() {
    VENDOR_SPARSE_CHECK(stage(rocsparse_spsv_stage_buffer_size));
    VENDOR_GPU_CHECK(hipMalloc(&buffer_, buffer_bytes_ ? buffer_bytes_ : 1));
    VENDOR_SPARSE_CHECK(stage(rocsparse_spsv_stage_preprocess));
  }
  void solve() { VENDOR_SPARSE_CHECK(stage(rocsparse_spsv_stage_compute)); }
  static const char* name() { return "rocsparse_spsv CSR, rocsparse_spsv_alg_default"; }
  size_t buffer_bytes() const { return buffer_bytes_; }

 private:
  rocsparse_status stage(rocsparse_spsv_stage st) {
    return rocsparse_spsv(handle_, rocsparse_operation_none, &one_, mat_, b_, x_, value_type<T>(),
                          rocsparse_spsv_alg_default, st, &buffer_bytes_, buffer_);
  }
  const T one_ = 1;
  rocsparse_handle handle_ = nullptr;
  rocsparse_spmat_descr mat_ = nullptr;
  rocsparse_dnvec_descr b_ = nullptr, x_ = nullptr;
  void* buffer_ = nullptr;
  size_t buffer_bytes_ = 0;
};

#endif

}  // namespace

bool vendor_available(std::string* why) {
  why->clear();
  return true;
}

template <typename T>
solve_times run_vendor(const problem& p, const options& o, std::vector<double>* x) {
  // The vendor solves one whole system on one device: the caller passes the full row range.
  if (p.bounds.size() != (size_t)p.npes + 1 || p.row0() != 0 || p.row1() != p.l->n) {
    std::fprintf(stderr,
                 "spts: run_vendor: needs the whole matrix on one PE (rows [0, %d)), got rows [%d, %d) "
                 "on PE %d of %d\n",
                 p.l->n, p.row0(), p.row1(), p.me, p.npes);
    shmem_global_exit(1);
  }
  device_system<T> sys(*p.l, *p.b);
  solve_times t;
  {
    vendor_solver<T> solver(sys);
    VENDOR_GPU_CHECK(hipDeviceSynchronize());
    const double t0 = now_s();
    solver.prepare();
    VENDOR_GPU_CHECK(hipDeviceSynchronize());
    t.prep_s = now_s() - t0;

    for (int i = 0; i < o.warmup; ++i) solver.solve();
    VENDOR_GPU_CHECK(hipDeviceSynchronize());
    for (int i = 0; i < o.reps; ++i) {
      const double s0 = now_s();
      solver.solve();
      VENDOR_GPU_CHECK(hipDeviceSynchronize());
      t.solve_s.push_back(now_s() - s0);
    }
    char detail[160];
    std::snprintf(detail, sizeof detail, "%s, %s, analysis buffer %.1f MiB", solver.name(),
                  sizeof(T) == 4 ? "float" : "double", solver.buffer_bytes() / 1048576.0);
    t.detail = detail;
  }
  std::vector<T> x_t(sys.n);
  VENDOR_GPU_CHECK(hipMemcpy(x_t.data(), sys.x, sys.n * sizeof(T), hipMemcpyDeviceToHost));
  x->assign(x_t.begin(), x_t.end());
  return t;
}

#endif

template solve_times run_vendor<float>(const problem&, const options&, std::vector<double>*);
template solve_times run_vendor<double>(const problem&, const options&, std::vector<double>*);

}  // namespace spts
