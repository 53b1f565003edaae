/* The runtime half of the ABI: init, device, stream, "device" memory (host malloc) and SoC name.
 *
 * Device allocations are recorded so memcpy kinds and tensor data pointers can be checked: a
 * caller that hands a host pointer where a device pointer belongs gets an error, as it would
 * on an NPU (where the address would not even be mapped).
 */
#include <stdlib.h>
#include <string.h>

#include "fake_acl.h"

#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_RT_INVALID_DEVICE 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_INVALID 107003
#define STREAM_MAGIC 0x5354524dU

typedef struct allocation {
    char *base;
    size_t size;
    struct allocation *next;
} allocation;

typedef struct {
    unsigned magic;
} fake_stream;

static bool initialized;
static int device = -1;
static allocation *allocations;

FAKE_API aclError aclInit(const char *config_path) {
    (void)config_path; /* no configuration file is read */
    if (initialized)
        return ACL_ERROR_REPEAT_INITIALIZE;
    initialized = true;
    return ACL_SUCCESS;
}

FAKE_API aclError aclFinalize(void) {
    if (!initialized)
        return ACL_ERROR_UNINITIALIZE;
    initialized = false;
    return ACL_SUCCESS;
}

FAKE_API aclError aclrtSetDevice(int32_t device_id) {
    if (!initialized)
        return ACL_ERROR_UNINITIALIZE;
    if (device_id < 0 || device_id > 7)
        return ACL_ERROR_RT_INVALID_DEVICE;
    device = device_id;
    return ACL_SUCCESS;
}

FAKE_API aclError aclrtResetDevice(int32_t device_id) {
    if (device_id != device)
        return ACL_ERROR_RT_INVALID_DEVICE;
    device = -1;
    return ACL_SUCCESS;
}

FAKE_API aclError aclrtCreateStream(aclrtStream *stream) {
    if (stream == NULL)
        return ACL_ERROR_INVALID_PARAM;
    if (device < 0)
        return ACL_ERROR_RT_CONTEXT_NULL;
    fake_stream *s = malloc(sizeof *s);
    if (s == NULL)
        return ACL_ERROR_BAD_ALLOC;
    s->magic = STREAM_MAGIC;
    *stream = s;
    return ACL_SUCCESS;
}

static bool valid_stream(aclrtStream stream) {
    return stream == NULL || ((fake_stream *)stream)->magic == STREAM_MAGIC; /* NULL: default */
}

FAKE_API aclError aclrtDestroyStream(aclrtStream stream) {
    if (stream == NULL || !valid_stream(stream))
        return ACL_ERROR_RT_STREAM_INVALID;
    ((fake_stream *)stream)->magic = 0;
    free(stream);
    return ACL_SUCCESS;
}

/* Kernels run synchronously at launch, so there is never anything to wait for. */
FAKE_API aclError aclrtSynchronizeStream(aclrtStream stream) {
    return valid_stream(stream) ? ACL_SUCCESS : ACL_ERROR_RT_STREAM_INVALID;
}

FAKE_API aclError aclrtMalloc(void **dev_ptr, size_t size, int policy) {
    (void)policy; /* huge pages or not: host memory either way */
    if (dev_ptr == NULL || size == 0)
        return ACL_ERROR_INVALID_PARAM;
    if (device < 0)
        return ACL_ERROR_RT_CONTEXT_NULL;
    allocation *a = malloc(sizeof *a);
    char *base = malloc(size);
    if (a == NULL || base == NULL) {
        free(a);
        free(base);
        return ACL_ERROR_BAD_ALLOC;
    }
    a->base = base;
    a->size = size;
    a->next = allocations;
    allocations = a;
    *dev_ptr = base;
    return ACL_SUCCESS;
}

FAKE_API aclError aclrtFree(void *dev_ptr) {
    for (allocation **at = &allocations; *at != NULL; at = &(*at)->next) {
        if ((*at)->base == dev_ptr) {
            allocation *a = *at;
            *at = a->next;
            free(a->base);
            free(a);
            return ACL_SUCCESS;
        }
    }
    return ACL_ERROR_INVALID_PARAM; /* not a device allocation (or freed twice) */
}

bool fake_is_device_range(const void *ptr, uint64_t bytes) {
    const char *p = ptr;
    for (const allocation *a = allocations; a != NULL; a = a->next) {
        if (p >= a->base && p <= a->base + a->size)
            return bytes <= (uint64_t)(a->base + a->size - p);
    }
    return false;
}

FAKE_API aclError aclrtMemcpy(void *dst, size_t dest_max, const void *src, size_t count, int kind) {
    if (dst == NULL || src == NULL || count > dest_max)
        return ACL_ERROR_INVALID_PARAM;
    bool dst_dev = fake_is_device_range(dst, count), src_dev = fake_is_device_range(src, count);
    bool ok = (kind == ACL_MEMCPY_HOST_TO_HOST && !dst_dev && !src_dev) ||
              (kind == ACL_MEMCPY_HOST_TO_DEVICE && dst_dev && !src_dev) ||
              (kind == ACL_MEMCPY_DEVICE_TO_HOST && !dst_dev && src_dev) ||
              (kind == ACL_MEMCPY_DEVICE_TO_DEVICE && dst_dev && src_dev);
    if (!ok)
        return ACL_ERROR_INVALID_PARAM;
    memmove(dst, src, count);
    return ACL_SUCCESS;
}

/* Internal callers use this, not the exported symbol, which another build could interpose. */
static const char *soc_name(void) {
    const char *soc = getenv("FAKE_ACLNN_SOC");
    return soc != NULL && soc[0] != '\0' ? soc : "Ascend910B3";
}

FAKE_API const char *aclrtGetSocName(void) {
    return soc_name();
}

FAKE_API aclError aclrtGetVersion(int32_t *major, int32_t *minor, int32_t *patch) {
    if (major == NULL || minor == NULL || patch == NULL)
        return ACL_ERROR_INVALID_PARAM;
    *major = 0;
    *minor = 1;
    *patch = 0;
    return ACL_SUCCESS;
}

static bool starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The SoC prefixes of specs/vocabulary.yaml's product lines, a longer prefix before any shorter
 * one it extends (Ascend910_93 and Ascend910B are not Atlas training SoCs). */
static const struct {
    const char *prefix;
    fake_product product;
} SOC_PREFIXES[] = {
    {"Ascend910_93", PRODUCT_A3}, {"Ascend910B", PRODUCT_A2},       {"Ascend910", PRODUCT_TRAINING},
    {"Ascend310P", PRODUCT_INFERENCE}, {"Ascend310B", PRODUCT_200I_500_A2}, {"Ascend950", PRODUCT_950},
};

fake_product fake_current_product(void) {
    const char *soc = soc_name();
    for (size_t i = 0; i < sizeof SOC_PREFIXES / sizeof SOC_PREFIXES[0]; i++)
        if (starts_with(soc, SOC_PREFIXES[i].prefix))
            return SOC_PREFIXES[i].product;
    return PRODUCT_UNKNOWN;
}

aclnnStatus fake_product_gate(unsigned supported, fake_product *product) {
    *product = fake_current_product();
    if (*product == PRODUCT_UNKNOWN)
        return ACLNN_ERR_INNER; /* no kernel was built for this SoC */
    return supported & PRODUCT_BIT(*product) ? ACLNN_SUCCESS : ACLNN_ERR_RUNTIME_ERROR;
}
