/* aclnnToyForeachAxpy, the invented list operator of tests/fixtures/list_pack: every clause of
 * its spec checked in phase 1, in the spec's order; phase 2 computes out[i] = x[i] + alpha * y[i]
 * in double (floored when rounding is "floor"), rounding once into each out[i]'s view. */
#include <math.h>
#include <string.h>

#include "fake_acl.h"

#define PRODUCTS (PRODUCT_BIT(PRODUCT_A2) | PRODUCT_BIT(PRODUCT_A3))
#define MAX_COUNT 8
#define MAX_RANK 4

static bool float_dtype(int dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16; }

static aclnnStatus check(const aclTensorList *const l[3], const aclScalar *alpha, const char *rounding) {
    fake_product product;
    aclnnStatus supported = fake_product_gate(PRODUCTS, &product);
    if (supported != ACLNN_SUCCESS)
        return supported;
    /* TFA-NULL */
    if (l[0] == NULL || l[1] == NULL || l[2] == NULL || alpha == NULL)
        return FAKE_NULL_STATUS;
    for (int k = 0; k < 3; k++)
        for (uint64_t i = 0; i < l[k]->size; i++)
            if (l[k]->tensors[i] == NULL)
                return FAKE_NULL_STATUS;
    /* TFA-DTYPE and TFA-SAME-DTYPE: every element of every list, one dtype */
    int first = l[0]->size ? l[0]->tensors[0]->dtype : ACL_FLOAT;
    for (int k = 0; k < 3; k++)
        for (uint64_t i = 0; i < l[k]->size; i++) {
#ifdef BUG_LIST_FIRST_DTYPE
            if (k == 0 && i > 0) /* bug: only x[0] of x is checked */
                continue;
#endif
            int dtype = l[k]->tensors[i]->dtype;
            if (!float_dtype(dtype) || dtype != first)
                return ACLNN_ERR_PARAM_INVALID;
        }
    /* TFA-ALPHA-DTYPE */
    if (alpha->dtype != ACL_FLOAT && alpha->dtype != ACL_DOUBLE && alpha->dtype != ACL_INT32)
        return ACLNN_ERR_PARAM_INVALID;
    /* TFA-COUNT */
    if (l[0]->size < 1 || l[0]->size > MAX_COUNT)
        return ACLNN_ERR_PARAM_INVALID;
    /* TFA-SHAPE: as many tensors, of one shape position by position */
    for (int k = 1; k < 3; k++) {
        if (l[k]->size != l[0]->size)
            return ACLNN_ERR_PARAM_INVALID;
        for (uint64_t i = 0; i < l[0]->size; i++)
            if (!fake_same_shape(l[k]->tensors[i], l[0]->tensors[i]))
                return ACLNN_ERR_PARAM_INVALID;
    }
    /* TFA-RANK */
    for (int k = 0; k < 3; k++)
        for (uint64_t i = 0; i < l[k]->size; i++)
            if (l[k]->tensors[i]->rank > MAX_RANK)
                return ACLNN_ERR_PARAM_INVALID;
    /* TFA-ROUNDING */
    if (rounding == NULL || (strcmp(rounding, "none") != 0 && strcmp(rounding, "floor") != 0))
        return ACLNN_ERR_PARAM_INVALID;
    /* TFA-FORMAT (unspecified): any format is read as ND. */
    return ACLNN_SUCCESS;
}

static aclnnStatus axpy_kernel(const aclOpExecutor *plan, void *workspace) {
    (void)workspace;
    const aclTensorList *x = plan->lists[0], *y = plan->lists[1], *out = plan->lists[2];
    for (uint64_t i = 0; i < out->size; i++) {
        const aclTensor *a = x->tensors[i], *b = y->tensors[i], *o = out->tensors[i];
        fake_iter it;
        fake_iter_init(&it, o->dims, o->rank);
        int sa = fake_iter_add(&it, a->dims, a->strides, a->rank, a->offset);
        int sb = fake_iter_add(&it, b->dims, b->strides, b->rank, b->offset);
        int so = fake_iter_add(&it, o->dims, o->strides, o->rank, o->offset);
        int64_t total = fake_numel(o);
        for (int64_t k = 0; k < total; k++, fake_iter_next(&it)) {
            double av, bv, unused;
            fake_load(a->data, a->dtype, it.offset[sa], &av, &unused);
            fake_load(b->data, b->dtype, it.offset[sb], &bv, &unused);
            double value = av + plan->alpha * bv;
            fake_store(o->data, o->dtype, it.offset[so], plan->floor_mode ? floor(value) : value, 0.0);
        }
    }
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnToyForeachAxpyGetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *y, const aclScalar *alpha, const char *rounding,
    aclTensorList *out, uint64_t *workspace_size, aclOpExecutor **executor) {
    if (workspace_size == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    *workspace_size = 0;
    *executor = NULL;
    const aclTensorList *const l[3] = {x, y, out};
    aclnnStatus status = check(l, alpha, rounding);
    if (status != ACLNN_SUCCESS)
        return status;
    aclOpExecutor *plan = fake_new_executor(axpy_kernel, 0);
    if (plan == NULL)
        return ACLNN_ERR_INNER;
    for (int k = 0; k < 3; k++)
        plan->lists[k] = l[k];
    plan->alpha = alpha->re;
    plan->floor_mode = strcmp(rounding, "floor") == 0;
    *executor = plan;
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnToyForeachAxpy(void *workspace, uint64_t workspace_size,
                                         aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}
