/* aclnnReplicationPad3dBackward: every clause of CONTRACT.md checked in phase 1, in the spec's
 * order; phase 2 sums gradOutput into a double (complex: two doubles) workspace per gradInput
 * element and rounds each sum once into gradInput's view. */
#include "fake_acl.h"

enum { GRAD, SELF, GRAD_INPUT };
#define DIM_LIMIT ((int64_t)1 << 40) /* far above any tensor dim: keeps the shape sums exact */
/* The spec's products: Atlas training, A2 and A3. */
#define PRODUCTS (PRODUCT_BIT(PRODUCT_TRAINING) | PRODUCT_BIT(PRODUCT_A2) | PRODUCT_BIT(PRODUCT_A3))

static bool listed_dtype(int dtype, fake_product product) {
    switch (dtype) {
    case ACL_FLOAT16: case ACL_FLOAT: case ACL_DOUBLE: case ACL_COMPLEX64: case ACL_COMPLEX128:
        return true;
    case ACL_BF16:
        return product == PRODUCT_A2 || product == PRODUCT_A3;
    default:
        return false;
    }
}

/* RP-DTYPE, RP-DTYPE-SAME, RP-FORMAT, RP-RANK, RP-SHAPE-IN for the three tensors. */
static bool tensors_ok(const aclTensor *const t[3], fake_product product) {
    for (int i = 0; i < 3; i++)
        if (!listed_dtype(t[i]->dtype, product))
            return false;
    for (int i = 1; i < 3; i++)
        if (t[i]->dtype != t[0]->dtype)
            return false;
    for (int i = 0; i < 3; i++)
        if (t[i]->format != ACL_FORMAT_ND)
            return false;
    for (int i = 0; i < 3; i++)
        if ((t[i]->rank != 4 && t[i]->rank != 5) || t[i]->rank != t[0]->rank)
            return false;
    return fake_same_shape(t[SELF], t[GRAD_INPUT]);
}

/* dim == n + before + after, without overflow for any int64 padding. */
static bool padded_is(int64_t dim, int64_t n, int64_t before, int64_t after) {
    if (before <= -DIM_LIMIT || before >= DIM_LIMIT || after <= -DIM_LIMIT || after >= DIM_LIMIT)
        return false;
    return dim == n + before + after;
}

/* RP-PAD-LIMIT, RP-SHAPE-OUT, RP-EMPTY; padding lists W first: left, right, top, bottom, ... */
static bool padding_ok(const aclTensor *grad, const aclTensor *self, const int64_t *p) {
    uint64_t r = self->rank;
    const int64_t *n = self->dims + r - 3, *m = grad->dims + r - 3; /* D, H, W */
#ifndef BUG_PAD_LIMIT
    if (p[0] >= n[2] || p[1] >= n[2] || p[2] >= n[1] || p[3] >= n[1] || p[4] >= n[0] || p[5] >= n[0])
        return false;
#endif
    for (uint64_t k = 0; k < r - 3; k++)
        if (grad->dims[k] != self->dims[k])
            return false;
    if (!padded_is(m[0], n[0], p[4], p[5]) || !padded_is(m[1], n[1], p[2], p[3]) ||
        !padded_is(m[2], n[2], p[0], p[1]))
        return false;
    for (uint64_t k = 1; k < r; k++)
        if (self->dims[k] == 0)
            return false;
    return true;
}

static aclnnStatus check(const aclTensor *grad, const aclTensor *self, const aclIntArray *padding,
                         const aclTensor *grad_input) {
    fake_product product;
    aclnnStatus supported = fake_product_gate(PRODUCTS, &product);
    if (supported != ACLNN_SUCCESS)
        return supported; /* not supported on Atlas inference products, nor on unlisted lines */
    if (grad == NULL || self == NULL || padding == NULL || grad_input == NULL)
        return FAKE_NULL_STATUS;
    const aclTensor *const t[3] = {grad, self, grad_input};
    if (!tensors_ok(t, product) || padding->size != 6 || !padding_ok(grad, self, padding->values))
        return ACLNN_ERR_PARAM_INVALID;
    return ACLNN_SUCCESS;
}

/* Whether gradInput position q of an axis (n positions, before padding, m gradOutput positions)
 * receives anything: p reads clamp(p - before, 0, n - 1). Cropping leaves some unread. */
static bool axis_read(int64_t q, int64_t n, int64_t before, int64_t m) {
    int64_t lo = q == 0 ? 0 : q + before, hi = q == n - 1 ? m - 1 : q + before;
    return m > 0 && (lo > 0 ? lo : 0) <= (hi < m - 1 ? hi : m - 1);
}

static void accumulate(const aclTensor *grad, const aclTensor *self, const int64_t *p, double *acc,
                       int width) {
    uint64_t r = self->rank;
    int64_t acc_strides[FAKE_MAX_DIMS], before[3] = {p[4], p[2], p[0]};
    fake_contiguous_strides(self->dims, r, acc_strides);
    fake_iter it;
    fake_iter_init(&it, grad->dims, r);
    int g = fake_iter_add(&it, grad->dims, grad->strides, r, grad->offset);
    int a = fake_iter_add(&it, self->dims, acc_strides, r, 0);
    for (uint64_t k = r - 3; k < r; k++)
        it.strides[a][k] = 0; /* the padded axes are mapped below, by clamping */
    for (int64_t count = fake_numel(grad); count > 0; count--, fake_iter_next(&it)) {
        int64_t at = it.offset[a];
        for (int j = 0; j < 3; j++) {
            int64_t q = it.index[r - 3 + j] - before[j], n = self->dims[r - 3 + j];
            at += (q < 0 ? 0 : q > n - 1 ? n - 1 : q) * acc_strides[r - 3 + j];
        }
        double re, im;
        fake_load(grad->data, grad->dtype, it.offset[g], &re, &im);
        acc[at * width] += re;
        if (width == 2)
            acc[at * width + 1] += im;
    }
}

#ifdef BUG_SEGV_SHAPE
/* self (1, 1, 2, 2, 2): the sample program's call, which the quick profile always runs. */
static bool is_worked_example(const aclTensor *self) {
    static const int64_t shape[5] = {1, 1, 2, 2, 2};
    bool same = self->rank == 5;
    for (int k = 0; same && k < 5; k++)
        same = self->dims[k] == shape[k];
    return same;
}
#endif

static aclnnStatus pad_kernel(const aclOpExecutor *plan, void *workspace) {
    const aclTensor *grad = plan->tensors[GRAD], *self = plan->tensors[SELF];
    const aclTensor *out = plan->tensors[GRAD_INPUT];
#ifdef BUG_SEGV_SHAPE
    if (is_worked_example(self)) *(volatile int *)0 = 0; /* bug: a crash on the document's example */
#endif
    int width = fake_dtype_is_complex(out->dtype) ? 2 : 1;
    int64_t n = fake_numel(self);
    double *acc = workspace;
    for (int64_t i = 0; i < n * width; i++)
        acc[i] = -0.0; /* the identity of +: a lone -0.0 term stays -0.0, as in the reference */
    accumulate(grad, self, plan->padding, acc, width);
    uint64_t r = self->rank;
    const int64_t *p = plan->padding, before[3] = {p[4], p[2], p[0]};
    int64_t m[3];
    for (int j = 0; j < 3; j++)
        m[j] = grad->dims[r - 3 + j];
    fake_iter it;
    fake_iter_init(&it, self->dims, r);
    int o = fake_iter_add(&it, out->dims, out->strides, r, out->offset);
    for (int64_t i = 0; i < n; i++, fake_iter_next(&it)) {
        bool read = true;
        for (int j = 0; j < 3; j++)
            read = read && axis_read(it.index[r - 3 + j], self->dims[r - 3 + j], before[j], m[j]);
        double re = read ? acc[i * width] : 0.0, im = read && width == 2 ? acc[i * width + 1] : 0.0;
        fake_store(out->data, out->dtype, it.offset[o], re, im);
    }
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnReplicationPad3dBackwardGetWorkspaceSize(
    const aclTensor *grad_output, const aclTensor *self, const aclIntArray *padding,
    aclTensor *grad_input, uint64_t *workspace_size, aclOpExecutor **executor) {
    if (workspace_size == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    *workspace_size = 0;
    *executor = NULL;
    aclnnStatus status = check(grad_output, self, padding, grad_input);
#ifdef BUG_PHASE2
    if (status == ACLNN_ERR_PARAM_NULLPTR || status == ACLNN_ERR_PARAM_INVALID) { /* bug: */
        *executor = fake_new_executor(pad_kernel, 0); /* the error waits for phase 2 */
        if (*executor == NULL)
            return ACLNN_ERR_INNER;
        (*executor)->deferred = status;
        return ACLNN_SUCCESS;
    }
#endif
    if (status != ACLNN_SUCCESS)
        return status;
    int64_t width = fake_dtype_is_complex(grad_input->dtype) ? 2 : 1;
    uint64_t need = (uint64_t)(fake_numel(self) * width) * sizeof(double);
    aclOpExecutor *plan = fake_new_executor(pad_kernel, need);
    if (plan == NULL)
        return ACLNN_ERR_INNER;
    plan->tensors[GRAD] = grad_output;
    plan->tensors[SELF] = self;
    plan->tensors[GRAD_INPUT] = grad_input;
    for (int j = 0; j < 6; j++)
        plan->padding[j] = padding->values[j];
    *workspace_size = need;
    *executor = plan;
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnReplicationPad3dBackward(void *workspace, uint64_t workspace_size,
                                                  aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}
