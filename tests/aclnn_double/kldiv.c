/* aclnnKlDivBackward: every clause of CONTRACT.md checked in phase 1, in the spec's order;
 * phase 2 sums the terms -w*g*scale over B = broadcast(self, target) into a double workspace
 * per self element and rounds each sum once into out's view. */
#include <math.h>

#include "fake_acl.h"

enum { GRAD, SELF, TARGET, OUT };
enum { NONE, MEAN, SUM, BATCHMEAN };
#define MAX_RANK 8
/* The spec's products: Atlas training, inference, A2 and A3 (not the lines the seed predates). */
#define PRODUCTS (PRODUCT_BIT(PRODUCT_TRAINING) | PRODUCT_BIT(PRODUCT_INFERENCE) | \
                  PRODUCT_BIT(PRODUCT_A2) | PRODUCT_BIT(PRODUCT_A3))

static bool listed_dtype(int dtype, fake_product product) {
    if (dtype == ACL_FLOAT || dtype == ACL_FLOAT16)
        return true;
    return dtype == ACL_BF16 && (product == PRODUCT_A2 || product == PRODUCT_A3);
}

/* KL-BCAST-TARGET and KL-BCAST-GRAD: B exists, and gradOutput broadcasts to B without growing it. */
static bool shapes_broadcast(const aclTensor *grad, const aclTensor *self, const aclTensor *target,
                             int64_t *b, uint64_t *rb) {
    int64_t g[FAKE_MAX_DIMS];
    uint64_t rg;
    if (!fake_broadcast(self->dims, self->rank, target->dims, target->rank, b, rb))
        return false;
    if (!fake_broadcast(grad->dims, grad->rank, b, *rb, g, &rg) || rg != *rb)
        return false;
    for (uint64_t k = 0; k < rg; k++)
        if (g[k] != b[k])
            return false;
    return true;
}

static aclnnStatus check(const aclTensor *const t[4], int64_t reduction) {
    fake_product product;
    aclnnStatus supported = fake_product_gate(PRODUCTS, &product);
    if (supported != ACLNN_SUCCESS)
        return supported;
    for (int i = 0; i < 4; i++)
        if (t[i] == NULL)
            return FAKE_NULL_STATUS;
    for (int i = 0; i < 4; i++)
        if (!listed_dtype(t[i]->dtype, product))
            return ACLNN_ERR_PARAM_INVALID;
    int64_t b[FAKE_MAX_DIMS];
    uint64_t rb;
    if (t[OUT]->dtype != t[SELF]->dtype || !shapes_broadcast(t[GRAD], t[SELF], t[TARGET], b, &rb) ||
        !fake_same_shape(t[OUT], t[SELF]))
        return ACLNN_ERR_PARAM_INVALID;
    for (int i = 0; i < 4; i++)
        if (t[i]->rank > MAX_RANK)
            return ACLNN_ERR_PARAM_INVALID;
    if (reduction < NONE || reduction > BATCHMEAN)
        return ACLNN_ERR_PARAM_INVALID; /* undocumented: refused, as the reference does */
    return ACLNN_SUCCESS;
}

static double scale_of(int64_t reduction, const int64_t *b, uint64_t rb, int64_t total,
                       const aclTensor *self) {
    (void)self;
    if (reduction == MEAN)
        return 1.0 / (double)total;
#ifdef BUG_BATCHMEAN
    if (reduction == BATCHMEAN) /* bug: divides by self's dim 0, not B's */
        return self->rank > 0 ? 1.0 / (double)self->dims[0] : 1.0;
#endif
    if (reduction == BATCHMEAN)
        return rb > 0 ? 1.0 / (double)b[0] : 1.0; /* a 0-d B is one batch of one */
    return 1.0;
}

static void accumulate(const aclOpExecutor *plan, const int64_t *b, uint64_t rb, int64_t total,
                       double *acc) {
    const aclTensor *grad = plan->tensors[GRAD], *self = plan->tensors[SELF];
    const aclTensor *target = plan->tensors[TARGET];
    double scale = scale_of(plan->reduction, b, rb, total, self);
    int64_t acc_strides[FAKE_MAX_DIMS];
    fake_contiguous_strides(self->dims, self->rank, acc_strides);
    fake_iter it;
    fake_iter_init(&it, b, rb);
    int g = fake_iter_add(&it, grad->dims, grad->strides, grad->rank, grad->offset);
    int t = fake_iter_add(&it, target->dims, target->strides, target->rank, target->offset);
    int a = fake_iter_add(&it, self->dims, acc_strides, self->rank, 0);
    for (int64_t k = 0; k < total; k++, fake_iter_next(&it)) {
        double gv, tv, unused;
        fake_load(grad->data, grad->dtype, it.offset[g], &gv, &unused);
        fake_load(target->data, target->dtype, it.offset[t], &tv, &unused);
        double w = plan->log_target ? exp(tv) : tv;
        acc[it.offset[a]] += -(w * gv) * scale; /* the reference's order of operations */
    }
}

static aclnnStatus kl_kernel(const aclOpExecutor *plan, void *workspace) {
    const aclTensor *self = plan->tensors[SELF], *out = plan->tensors[OUT];
    int64_t b[FAKE_MAX_DIMS], total = 1, n = fake_numel(self);
    uint64_t rb;
    fake_broadcast(self->dims, self->rank, plan->tensors[TARGET]->dims, plan->tensors[TARGET]->rank,
                   b, &rb);
    for (uint64_t k = 0; k < rb; k++)
        total *= b[k];
    double *acc = workspace;
    for (int64_t i = 0; i < n; i++)
        acc[i] = total > 0 ? -0.0 : 0.0; /* -0.0: the identity of +; an empty B leaves zeros */
    accumulate(plan, b, rb, total, acc);
    fake_iter it;
    fake_iter_init(&it, self->dims, self->rank);
    int o = fake_iter_add(&it, out->dims, out->strides, out->rank, out->offset);
    for (int64_t i = 0; i < n; i++, fake_iter_next(&it))
        fake_store(out->data, out->dtype, it.offset[o], acc[i], 0.0);
#ifdef BUG_OOB_WRITE
    int64_t end = out->offset; /* bug: a vector tail stored in full, one element past the view */
    for (uint64_t k = 0; k < out->rank; k++)
        end += (out->dims[k] - 1) * out->strides[k];
    if (n > 0 && end + 1 < out->storage_numel) fake_store(out->data, out->dtype, end + 1, acc[n - 1], 0.0);
#endif
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(
    const aclTensor *grad_output, const aclTensor *self, const aclTensor *target, int64_t reduction,
    bool log_target, aclTensor *out, uint64_t *workspace_size, aclOpExecutor **executor) {
    if (workspace_size == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    *workspace_size = 0;
    *executor = NULL;
    const aclTensor *const t[4] = {grad_output, self, target, out};
    aclnnStatus status = check(t, reduction);
    if (status != ACLNN_SUCCESS)
        return status;
    uint64_t need = (uint64_t)fake_numel(self) * sizeof(double);
    aclOpExecutor *plan = fake_new_executor(kl_kernel, need);
    if (plan == NULL)
        return ACLNN_ERR_INNER;
    for (int i = 0; i < 4; i++)
        plan->tensors[i] = t[i];
    plan->reduction = reduction;
    plan->log_target = log_target;
    *workspace_size = need;
    *executor = plan;
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnKlDivBackward(void *workspace, uint64_t workspace_size,
                                       aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}
