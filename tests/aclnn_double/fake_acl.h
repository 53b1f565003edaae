/* A test double of the aclnn C ABI (runtime, tensor API, a few operators), for the conformance
 * suite's own tests: plain C99, host memory as "device" memory, computing in double.
 *
 * Only the entry points marked FAKE_API are exported: the library is built with
 * -fvisibility=hidden, so its internal calls never bind to another build loaded in the same
 * process (the tests load several variants, RTLD_GLOBAL, into one interpreter).
 */
#ifndef FAKE_ACL_H
#define FAKE_ACL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKE_API __attribute__((visibility("default")))

/* Status codes (CONTRACT.md). */
#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_BAD_ALLOC 200000
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000

#ifdef BUG_NULL_CODE
#define FAKE_NULL_STATUS ACLNN_ERR_PARAM_INVALID /* bug: a null pointer reported as invalid */
#else
#define FAKE_NULL_STATUS ACLNN_ERR_PARAM_NULLPTR
#endif

/* aclDataType values this library computes with (the vendor header's enum). */
enum {
    ACL_FLOAT = 0, ACL_FLOAT16 = 1, ACL_INT8 = 2, ACL_INT32 = 3, ACL_UINT8 = 4, ACL_INT16 = 6,
    ACL_UINT16 = 7, ACL_UINT32 = 8, ACL_INT64 = 9, ACL_UINT64 = 10, ACL_DOUBLE = 11, ACL_BOOL = 12,
    ACL_COMPLEX64 = 16, ACL_COMPLEX128 = 17, ACL_BF16 = 27
};
#define ACL_FORMAT_ND 2
#define ACL_MEMCPY_HOST_TO_HOST 0
#define ACL_MEMCPY_HOST_TO_DEVICE 1
#define ACL_MEMCPY_DEVICE_TO_HOST 2
#define ACL_MEMCPY_DEVICE_TO_DEVICE 3

#define FAKE_MAX_DIMS 32 /* aclCreateTensor refuses more; the operators allow far fewer */

typedef int32_t aclError;
typedef int32_t aclnnStatus;
typedef void *aclrtStream;

typedef struct aclTensor {
    int64_t dims[FAKE_MAX_DIMS];
    int64_t strides[FAKE_MAX_DIMS];
    uint64_t rank;
    int64_t offset; /* elements from the storage start */
    int dtype;
    int format;
    int64_t storage_numel;
    void *data; /* the storage start, in device memory */
} aclTensor;

typedef struct aclIntArray {
    int64_t *values;
    uint64_t size;
} aclIntArray;

/* An array of flags (aclCreateBoolArray: an outputMask), copied at creation. */
typedef struct aclBoolArray {
    bool *values;
    uint64_t size;
} aclBoolArray;

/* A list of tensors (aclCreateTensorList): destroying it destroys its tensors, as CANN's does. */
typedef struct aclTensorList {
    const aclTensor **tensors;
    uint64_t size;
} aclTensorList;

/* A host scalar (aclCreateScalar): its value read once, in double, and the dtype it came in. */
typedef struct aclScalar {
    double re, im;
    int dtype;
} aclScalar;

typedef struct aclOpExecutor aclOpExecutor;
typedef aclnnStatus (*fake_kernel)(const aclOpExecutor *plan, void *workspace);

/* What phase 1 planned and phase 2 runs (phase 2 frees it). */
struct aclOpExecutor {
    fake_kernel run;
    uint64_t workspace_size;
    aclnnStatus deferred; /* BUG_PHASE2: a parameter error phase 1 kept for phase 2 */
    const aclTensor *tensors[4];
    int64_t padding[6];
    int pad_axes; /* the padding gradients: how many trailing axes padding covers */
    int64_t reduction;
    bool log_target;
    float beta; /* SmoothL1: a C float, as the ABI passes it */
    const aclTensorList *lists[3]; /* the foreach toy: x, y, out */
    double alpha;
    bool floor_mode;
};

/* Product lines (specs/vocabulary.yaml), from the SoC name. */
typedef enum {
    PRODUCT_UNKNOWN, PRODUCT_TRAINING, PRODUCT_INFERENCE, PRODUCT_A2, PRODUCT_A3,
    PRODUCT_200I_500_A2, PRODUCT_950
} fake_product;
/* A set of product lines (an operator's page lists those it supports). */
#define PRODUCT_BIT(p) (1u << (p))

/* runtime.c */
fake_product fake_current_product(void);
/* An operator's first check: ACLNN_SUCCESS with *product set when the SoC is one of the product
 * lines in `supported` (a PRODUCT_BIT mask), ACLNN_ERR_INNER for a SoC of no known line, and
 * ACLNN_ERR_RUNTIME_ERROR for a line the operator's page does not support. */
aclnnStatus fake_product_gate(unsigned supported, fake_product *product);
bool fake_is_device_range(const void *ptr, uint64_t bytes);

/* dtype.c */
int64_t fake_dtype_size(int dtype);     /* bytes per element, 0 when unknown */
bool fake_dtype_is_complex(int dtype);
/* Element i (storage index) of a tensor of dtype as real and imaginary parts, in double. */
void fake_load(const void *data, int dtype, int64_t i, double *re, double *im);
/* Round (re, im) once to dtype and store it as element i. */
void fake_store(void *data, int dtype, int64_t i, double re, double im);
uint16_t fake_double_to_half(double x);
uint16_t fake_double_to_bf16(double x);
double fake_half_to_double(uint16_t bits);
double fake_bf16_to_double(uint16_t bits);

/* tensor.c: shapes and strided iteration */
int64_t fake_numel(const aclTensor *t);
bool fake_same_shape(const aclTensor *a, const aclTensor *b);
bool fake_broadcast(const int64_t *a, uint64_t ra, const int64_t *b, uint64_t rb, int64_t *out,
                    uint64_t *rout);
void fake_contiguous_strides(const int64_t *dims, uint64_t rank, int64_t *out);
/* Walks every multi-index of a shape (last dim fastest), keeping up to FAKE_ITER_SLOTS element
 * offsets, each moving by its own strides (0 along dims it broadcasts). */
#define FAKE_ITER_SLOTS 4
typedef struct {
    int64_t dims[FAKE_MAX_DIMS];
    uint64_t rank;
    int64_t index[FAKE_MAX_DIMS];
    int slots;
    int64_t strides[FAKE_ITER_SLOTS][FAKE_MAX_DIMS];
    int64_t offset[FAKE_ITER_SLOTS];
} fake_iter;
void fake_iter_init(fake_iter *it, const int64_t *dims, uint64_t rank);
/* A new slot starting at base whose strides are aligned right to the iterated shape. */
int fake_iter_add(fake_iter *it, const int64_t *dims, const int64_t *strides, uint64_t rank,
                  int64_t base);
void fake_iter_next(fake_iter *it);

/* executor.c: the shared two-phase plumbing */
aclOpExecutor *fake_new_executor(fake_kernel run, uint64_t workspace_size);
aclnnStatus fake_execute(void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                         aclrtStream stream);

#endif
