/* The tensor half of the ABI (aclTensor, aclIntArray) and the shape helpers the operators use. */
#include <stdlib.h>
#include <string.h>

#include "fake_acl.h"

/* The view must lie inside its storage, and a device storage inside its allocation: a caller
 * that gets offsets, strides or storage dims wrong is refused here, not left to read garbage. */
static bool view_fits(const aclTensor *t) {
    int64_t lo = t->offset, hi = t->offset;
    if (fake_numel(t) == 0)
        return t->offset >= 0;
    for (uint64_t k = 0; k < t->rank; k++) {
        int64_t reach = (t->dims[k] - 1) * t->strides[k];
        if (reach < 0)
            lo += reach;
        else
            hi += reach;
    }
    return lo >= 0 && hi < t->storage_numel;
}

static bool storage_fits(const aclTensor *t) {
    int64_t size = fake_dtype_size(t->dtype);
    if (t->data == NULL || size == 0)
        return true; /* no data yet, or a dtype whose size this library does not know */
    return fake_is_device_range(t->data, (uint64_t)(t->storage_numel * size));
}

FAKE_API aclTensor *aclCreateTensor(const int64_t *view_dims, uint64_t view_dims_num, int data_type,
                                    const int64_t *stride, int64_t offset, int format,
                                    const int64_t *storage_dims, uint64_t storage_dims_num,
                                    void *tensor_data) {
    if (view_dims_num > FAKE_MAX_DIMS || storage_dims_num > FAKE_MAX_DIMS ||
        (view_dims_num > 0 && (view_dims == NULL || stride == NULL)) ||
        (storage_dims_num > 0 && storage_dims == NULL))
        return NULL;
    aclTensor *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->rank = view_dims_num;
    if (view_dims_num > 0) {
        memcpy(t->dims, view_dims, view_dims_num * sizeof *view_dims);
        memcpy(t->strides, stride, view_dims_num * sizeof *stride);
    }
    t->storage_numel = 1;
    for (uint64_t k = 0; k < storage_dims_num; k++)
        t->storage_numel *= storage_dims[k];
    t->offset = offset;
    t->dtype = data_type;
    t->format = format;
    t->data = tensor_data;
    bool dims_ok = t->storage_numel >= 0;
    for (uint64_t k = 0; k < t->rank; k++)
        dims_ok = dims_ok && t->dims[k] >= 0;
    if (!dims_ok || !view_fits(t) || !storage_fits(t)) {
        free(t);
        return NULL;
    }
    return t;
}

FAKE_API aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    free((void *)tensor);
    return ACLNN_SUCCESS;
}

FAKE_API aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    if (size > 0 && value == NULL)
        return NULL;
    aclIntArray *a = malloc(sizeof *a);
    int64_t *copy = malloc(size > 0 ? size * sizeof *value : 1);
    if (a == NULL || copy == NULL) {
        free(a);
        free(copy);
        return NULL;
    }
    if (size > 0)
        memcpy(copy, value, size * sizeof *value);
    a->values = copy;
    a->size = size;
    return a;
}

FAKE_API aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
    if (array != NULL)
        free(array->values);
    free((void *)array);
    return ACLNN_SUCCESS;
}

int64_t fake_numel(const aclTensor *t) {
    int64_t n = 1;
    for (uint64_t k = 0; k < t->rank; k++)
        n *= t->dims[k];
    return n;
}

bool fake_same_shape(const aclTensor *a, const aclTensor *b) {
    return a->rank == b->rank && memcmp(a->dims, b->dims, a->rank * sizeof a->dims[0]) == 0;
}

/* numpy's broadcasting: aligned right, a dim of 1 stretches; false when two dims clash. */
bool fake_broadcast(const int64_t *a, uint64_t ra, const int64_t *b, uint64_t rb, int64_t *out,
                    uint64_t *rout) {
    uint64_t r = ra > rb ? ra : rb;
    for (uint64_t k = 0; k < r; k++) {
        int64_t da = k < r - ra ? 1 : a[k - (r - ra)], db = k < r - rb ? 1 : b[k - (r - rb)];
        if (da != db && da != 1 && db != 1)
            return false;
        out[k] = da == 1 ? db : da;
    }
    *rout = r;
    return true;
}

void fake_contiguous_strides(const int64_t *dims, uint64_t rank, int64_t *out) {
    int64_t step = 1;
    for (uint64_t k = rank; k-- > 0;) {
        out[k] = step;
        step *= dims[k] > 1 ? dims[k] : 1;
    }
}

void fake_iter_init(fake_iter *it, const int64_t *dims, uint64_t rank) {
    memset(it, 0, sizeof *it);
    it->rank = rank;
    if (rank > 0)
        memcpy(it->dims, dims, rank * sizeof *dims);
}

int fake_iter_add(fake_iter *it, const int64_t *dims, const int64_t *strides, uint64_t rank,
                  int64_t base) {
    int s = it->slots++;
    for (uint64_t k = 0; k < it->rank; k++) {
        int64_t j = (int64_t)k - (int64_t)(it->rank - rank); /* the tensor's own dim, if any */
        it->strides[s][k] = j < 0 || dims[j] == 1 ? 0 : strides[j];
    }
    it->offset[s] = base;
    return s;
}

void fake_iter_next(fake_iter *it) {
    for (uint64_t k = it->rank; k-- > 0;) {
        it->index[k]++;
        for (int s = 0; s < it->slots; s++)
            it->offset[s] += it->strides[s][k];
        if (it->index[k] < it->dims[k])
            return;
        for (int s = 0; s < it->slots; s++)
            it->offset[s] -= it->strides[s][k] * it->dims[k];
        it->index[k] = 0;
    }
}
