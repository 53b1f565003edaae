/* The tensor-list, scalar and bool-array half of the ABI (aclTensorList, aclScalar, aclBoolArray). */
#include <stdlib.h>
#include <string.h>

#include "fake_acl.h"

FAKE_API aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    if (size > 0 && value == NULL)
        return NULL;
    aclTensorList *list = calloc(1, sizeof *list);
    if (list == NULL)
        return NULL;
    list->tensors = calloc(size ? size : 1, sizeof *list->tensors);
    if (list->tensors == NULL) {
        free(list);
        return NULL;
    }
    if (size > 0)
        memcpy(list->tensors, value, size * sizeof *value);
    list->size = size;
    return list;
}

FAKE_API aclnnStatus aclDestroyTensor(const aclTensor *tensor);

FAKE_API aclError aclDestroyTensorList(const aclTensorList *list) {
    if (list == NULL)
        return ACL_ERROR_INVALID_PARAM;
    aclError status = ACL_SUCCESS;
    for (uint64_t i = 0; i < list->size; i++)
        if (list->tensors[i] != NULL && aclDestroyTensor(list->tensors[i]) != ACL_SUCCESS)
            status = ACL_ERROR_INVALID_PARAM;
    free((void *)list->tensors);
    free((void *)list);
    return status;
}

FAKE_API aclScalar *aclCreateScalar(void *value, int data_type) {
    if (value == NULL || fake_dtype_size(data_type) == 0)
        return NULL;
    aclScalar *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    switch (data_type) { /* (fake_load reads the floating dtypes the operators compute in) */
    case ACL_INT32: s->re = *(const int32_t *)value; break;
    case ACL_INT64: s->re = (double)*(const int64_t *)value; break;
    default: fake_load(value, data_type, 0, &s->re, &s->im);
    }
    s->dtype = data_type;
    return s;
}

FAKE_API aclError aclDestroyScalar(const aclScalar *scalar) {
    if (scalar == NULL)
        return ACL_ERROR_INVALID_PARAM;
    free((void *)scalar);
    return ACL_SUCCESS;
}

FAKE_API aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size) {
    if (size > 0 && value == NULL)
        return NULL;
    aclBoolArray *a = malloc(sizeof *a);
    bool *copy = malloc(size > 0 ? size * sizeof *value : 1);
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

FAKE_API aclError aclDestroyBoolArray(const aclBoolArray *array) {
    if (array != NULL)
        free(array->values);
    free((void *)array);
    return ACL_SUCCESS;
}
