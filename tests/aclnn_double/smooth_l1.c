/* aclnnSmoothL1LossBackward: every clause of specs/aclnnSmoothL1LossBackward.yaml checked in phase
 * 1, in the spec's order; phase 2 computes gradInput = gradOut * slope * scale in double over
 * B = broadcast(gradOut, self, target), gradInput's shape, where d = self - target and slope is
 * d / beta where |d| < beta, else sign(d) (0 at 0: beta 0 is pure L1); scale is 1 / numel of
 * broadcast(self, target) (the forward loss) for mean, else 1. Each element is rounded once into
 * gradInput's view. Elementwise: no workspace. */
#include <math.h>

#include "fake_acl.h"

enum { GRAD, SELF, TARGET, OUT };
enum { NONE, MEAN, SUM };
#define MAX_RANK 8
/* The spec's products: every line but Atlas 200I/500 A2. */
#define PRODUCTS (PRODUCT_BIT(PRODUCT_TRAINING) | PRODUCT_BIT(PRODUCT_INFERENCE) | \
                  PRODUCT_BIT(PRODUCT_A2) | PRODUCT_BIT(PRODUCT_A3) | PRODUCT_BIT(PRODUCT_950))

/* SL1-DTYPE's per-product table: the same list on every supported line. */
static bool listed_dtype(int dtype, fake_product product) {
    switch (product) {
    case PRODUCT_TRAINING: case PRODUCT_INFERENCE: case PRODUCT_A2: case PRODUCT_A3: case PRODUCT_950:
        return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16;
    default:
        return false;
    }
}

static aclnnStatus check(const aclTensor *const t[4], int64_t reduction, float beta) {
    fake_product product;
    aclnnStatus supported = fake_product_gate(PRODUCTS, &product);
    if (supported != ACLNN_SUCCESS)
        return supported; /* Atlas 200I/500 A2: not supported */
    /* SL1-NULL */
    for (int i = 0; i < 4; i++)
        if (t[i] == NULL)
            return FAKE_NULL_STATUS;
    /* SL1-DTYPE: each of the four listed; they may differ (the inputs promote, gradInput is any
     * listed dtype), since every value is computed in double and rounded once. */
    for (int i = 0; i < 4; i++)
        if (!listed_dtype(t[i]->dtype, product))
            return ACLNN_ERR_PARAM_INVALID;
    /* SL1-BCAST */
    int64_t gs[FAKE_MAX_DIMS], b[FAKE_MAX_DIMS];
    uint64_t rgs, rb;
    if (!fake_broadcast(t[GRAD]->dims, t[GRAD]->rank, t[SELF]->dims, t[SELF]->rank, gs, &rgs) ||
        !fake_broadcast(gs, rgs, t[TARGET]->dims, t[TARGET]->rank, b, &rb))
        return ACLNN_ERR_PARAM_INVALID;
    /* SL1-SHAPE-OUT: gradInput is that broadcast shape */
    if (t[OUT]->rank != rb)
        return ACLNN_ERR_PARAM_INVALID;
    for (uint64_t k = 0; k < rb; k++)
        if (t[OUT]->dims[k] != b[k])
            return ACLNN_ERR_PARAM_INVALID;
    /* SL1-RANK: at most 8 dims; SL1-ZERO-DIM (unspecified): 0-d refused here */
    for (int i = 0; i < 4; i++)
        if (t[i]->rank < 1 || t[i]->rank > MAX_RANK)
            return ACLNN_ERR_PARAM_INVALID;
    /* SL1-REDUCTION */
    if (reduction < NONE || reduction > SUM)
        return ACLNN_ERR_PARAM_INVALID;
    /* SL1-BETA (unspecified): a negative beta is accepted; |d| < beta never holds, so the slope
     * is sign(d), as the reference computes it. */
    (void)beta;
    /* SL1-MEAN-BCAST (unspecified): mean divides by numel(broadcast(self, target)) even where
     * gradOut enlarges B. SL1-EMPTY (unspecified): accepted; an empty B writes nothing.
     * SL1-FORMAT (unspecified): any format is accepted and read as ND. */
    return ACLNN_SUCCESS;
}

/* numpy's sign: 0 for either zero, NaN for NaN. */
static double sign_of(double d) {
    return d > 0 ? 1.0 : d < 0 ? -1.0 : d != d ? d : 0.0;
}

static aclnnStatus smooth_l1_kernel(const aclOpExecutor *plan, void *workspace) {
    (void)workspace; /* elementwise: nothing to accumulate */
    const aclTensor *grad = plan->tensors[GRAD], *self = plan->tensors[SELF];
    const aclTensor *target = plan->tensors[TARGET], *out = plan->tensors[OUT];
    double beta = plan->beta;
    int64_t loss[FAKE_MAX_DIMS], count = 1;
    uint64_t rl;
    fake_broadcast(self->dims, self->rank, target->dims, target->rank, loss, &rl);
    for (uint64_t k = 0; k < rl; k++)
        count *= loss[k];
#ifdef BUG_SL1_MEAN_SELF
    count = fake_numel(self); /* bug: mean over self's elements, not the loss's */
#endif
    double scale = plan->reduction == MEAN && count > 0 ? 1.0 / (double)count : 1.0;
    fake_iter it;
    fake_iter_init(&it, out->dims, out->rank);
    int g = fake_iter_add(&it, grad->dims, grad->strides, grad->rank, grad->offset);
    int s = fake_iter_add(&it, self->dims, self->strides, self->rank, self->offset);
    int t = fake_iter_add(&it, target->dims, target->strides, target->rank, target->offset);
    int o = fake_iter_add(&it, out->dims, out->strides, out->rank, out->offset);
    for (int64_t k = fake_numel(out); k > 0; k--, fake_iter_next(&it)) {
        double gv, sv, tv, unused;
        fake_load(grad->data, grad->dtype, it.offset[g], &gv, &unused);
        fake_load(self->data, self->dtype, it.offset[s], &sv, &unused);
        fake_load(target->data, target->dtype, it.offset[t], &tv, &unused);
        double d = sv - tv, slope = fabs(d) < beta ? d / beta : sign_of(d); /* |NaN| < beta: false */
        fake_store(out->data, out->dtype, it.offset[o], gv * slope * scale, 0.0); /* the reference's order */
    }
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(
    const aclTensor *grad_out, const aclTensor *self, const aclTensor *target, int64_t reduction,
    float beta, aclTensor *grad_input, uint64_t *workspace_size, aclOpExecutor **executor) {
    if (workspace_size == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    *workspace_size = 0;
    *executor = NULL;
    const aclTensor *const t[4] = {grad_out, self, target, grad_input};
    aclnnStatus status = check(t, reduction, beta);
    if (status != ACLNN_SUCCESS)
        return status;
    aclOpExecutor *plan = fake_new_executor(smooth_l1_kernel, 0);
    if (plan == NULL)
        return ACLNN_ERR_INNER;
    for (int i = 0; i < 4; i++)
        plan->tensors[i] = t[i];
    plan->reduction = reduction;
    plan->beta = beta;
    *executor = plan;
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnSmoothL1LossBackward(void *workspace, uint64_t workspace_size,
                                              aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}
