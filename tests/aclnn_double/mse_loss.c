/* aclnnMseLossBackward: every clause of specs/aclnnMseLossBackward.yaml checked in phase 1, in the
 * spec's order; phase 2 computes out = gradOutput * (self - target) * scale in double over
 * B = broadcast(gradOutput, self, target), out's shape, rounding each element once into out's
 * view (scale 2 / self.numel() for mean, else 2). Elementwise: no workspace. */
#include "fake_acl.h"

enum { GRAD, SELF, TARGET, OUT };
enum { NONE, MEAN, SUM };
#define MAX_RANK 8
/* The spec's products: not Atlas training, nor Atlas 200I/500 A2. */
#define PRODUCTS (PRODUCT_BIT(PRODUCT_INFERENCE) | PRODUCT_BIT(PRODUCT_A2) | PRODUCT_BIT(PRODUCT_A3) | \
                  PRODUCT_BIT(PRODUCT_950))

/* MSE-DTYPE's and MSE-DTYPE-OUT's per-product table: the same list on every supported line. */
static bool listed_dtype(int dtype, fake_product product) {
    switch (product) {
    case PRODUCT_INFERENCE: case PRODUCT_A2: case PRODUCT_A3: case PRODUCT_950:
        return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
    default:
        return false;
    }
}

static aclnnStatus check(const aclTensor *const t[4], int64_t reduction) {
    fake_product product;
    aclnnStatus supported = fake_product_gate(PRODUCTS, &product);
    if (supported != ACLNN_SUCCESS)
        return supported; /* Atlas training and 200I/500 A2: not supported */
    /* MSE-NULL */
    for (int i = 0; i < 4; i++)
        if (t[i] == NULL)
            return FAKE_NULL_STATUS;
    /* MSE-DTYPE: the three inputs */
    for (int i = GRAD; i <= TARGET; i++)
        if (!listed_dtype(t[i]->dtype, product))
            return ACLNN_ERR_PARAM_INVALID;
    /* MSE-DTYPE-SAME */
    if (t[GRAD]->dtype != t[SELF]->dtype || t[TARGET]->dtype != t[SELF]->dtype)
        return ACLNN_ERR_PARAM_INVALID;
    /* MSE-DTYPE-OUT: any listed dtype, whatever self's (the promise); one outside the list
     * (unspecified) is rejected with the code of the other dtype errors. */
#ifdef BUG_MSE_OUT_SAME
    if (t[OUT]->dtype != t[SELF]->dtype) /* bug: out must have self's dtype */
        return ACLNN_ERR_PARAM_INVALID;
#endif
    if (!listed_dtype(t[OUT]->dtype, product))
        return ACLNN_ERR_PARAM_INVALID;
    /* MSE-BCAST */
    int64_t gs[FAKE_MAX_DIMS], b[FAKE_MAX_DIMS];
    uint64_t rgs, rb;
    if (!fake_broadcast(t[GRAD]->dims, t[GRAD]->rank, t[SELF]->dims, t[SELF]->rank, gs, &rgs) ||
        !fake_broadcast(gs, rgs, t[TARGET]->dims, t[TARGET]->rank, b, &rb))
        return ACLNN_ERR_PARAM_INVALID;
    /* MSE-SHAPE-OUT: out is that broadcast shape */
    if (t[OUT]->rank != rb)
        return ACLNN_ERR_PARAM_INVALID;
    for (uint64_t k = 0; k < rb; k++)
        if (t[OUT]->dims[k] != b[k])
            return ACLNN_ERR_PARAM_INVALID;
    /* MSE-RANK: at most 8 dims, out included */
    for (int i = 0; i < 4; i++)
        if (t[i]->rank > MAX_RANK)
            return ACLNN_ERR_PARAM_INVALID;
    /* MSE-ZERO-DIM (unspecified): a 0-d tensor is accepted, as one element. */
    /* MSE-REDUCTION */
    if (reduction < NONE || reduction > SUM)
        return ACLNN_ERR_PARAM_INVALID;
    /* MSE-EMPTY (unspecified): accepted; an empty B writes nothing.
     * MSE-FORMAT (unspecified): any format is accepted and read as ND. */
    return ACLNN_SUCCESS;
}

static aclnnStatus mse_kernel(const aclOpExecutor *plan, void *workspace) {
    (void)workspace; /* elementwise: nothing to accumulate */
    const aclTensor *grad = plan->tensors[GRAD], *self = plan->tensors[SELF];
    const aclTensor *target = plan->tensors[TARGET], *out = plan->tensors[OUT];
    int64_t total = fake_numel(out), n = fake_numel(self);
#ifdef BUG_MSE_MEAN
    n = total; /* bug: mean over B's elements, not self's */
#endif
    double scale = plan->reduction == MEAN && n > 0 ? 2.0 / (double)n : 2.0;
    fake_iter it;
    fake_iter_init(&it, out->dims, out->rank);
    int g = fake_iter_add(&it, grad->dims, grad->strides, grad->rank, grad->offset);
    int s = fake_iter_add(&it, self->dims, self->strides, self->rank, self->offset);
    int t = fake_iter_add(&it, target->dims, target->strides, target->rank, target->offset);
    int o = fake_iter_add(&it, out->dims, out->strides, out->rank, out->offset);
    for (int64_t k = 0; k < total; k++, fake_iter_next(&it)) {
        double gv, sv, tv, unused;
        fake_load(grad->data, grad->dtype, it.offset[g], &gv, &unused);
        fake_load(self->data, self->dtype, it.offset[s], &sv, &unused);
        fake_load(target->data, target->dtype, it.offset[t], &tv, &unused);
        fake_store(out->data, out->dtype, it.offset[o], gv * (sv - tv) * scale, 0.0); /* the reference's order */
    }
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(
    const aclTensor *grad_output, const aclTensor *self, const aclTensor *target, int64_t reduction,
    aclTensor *out, uint64_t *workspace_size, aclOpExecutor **executor) {
    if (workspace_size == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    *workspace_size = 0;
    *executor = NULL;
    const aclTensor *const t[4] = {grad_output, self, target, out};
    aclnnStatus status = check(t, reduction);
    if (status != ACLNN_SUCCESS)
        return status;
    aclOpExecutor *plan = fake_new_executor(mse_kernel, 0);
    if (plan == NULL)
        return ACLNN_ERR_INNER;
    for (int i = 0; i < 4; i++)
        plan->tensors[i] = t[i];
    plan->reduction = reduction;
    *executor = plan;
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnMseLossBackward(void *workspace, uint64_t workspace_size,
                                         aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}
