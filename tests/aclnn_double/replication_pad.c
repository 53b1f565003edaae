/* aclnnReplicationPad1dBackward and aclnnReplicationPad2dBackward: every clause of each spec
 * (specs/aclnnReplicationPad1dBackward.yaml, ...2dBackward.yaml) checked in phase 1, in the
 * spec's order; the two pages list the same clauses in the same order, but for the padded axes,
 * the ranks, and two rules only the 2-D page has. Phase 2 sums gradOutput into a double (complex:
 * two doubles) workspace per gradInput element and rounds each sum once into gradInput's view,
 * for any number of padded trailing axes. */
#include "fake_acl.h"

enum { GRAD, SELF, GRAD_INPUT };
#define DIM_LIMIT ((int64_t)1 << 40) /* far above any tensor dim: keeps the shape sums exact */

/* What differs between the two pages. */
typedef struct {
    int axes;            /* padded trailing axes; padding holds 2 per axis, W first */
    uint64_t rank_lo;    /* RPxD-RANK */
    uint64_t rank_hi;
    bool bf16_pad_max_7; /* RP2D-PAD-BF16 */
} pad_page;

static const pad_page PAGE_1D = {1, 2, 3, false};
static const pad_page PAGE_2D = {2, 3, 4, true};

/* Both pages: every product line but Atlas 200I/500 A2. */
#define PRODUCTS (PRODUCT_BIT(PRODUCT_TRAINING) | PRODUCT_BIT(PRODUCT_INFERENCE) | \
                  PRODUCT_BIT(PRODUCT_A2) | PRODUCT_BIT(PRODUCT_A3) | PRODUCT_BIT(PRODUCT_950))

/* RPxD-DTYPE's per-product table. The pages give one list with no product notes, so every
 * supported line lists BFLOAT16 (training and inference too, unlike the 3-D page). */
static bool listed_dtype(int dtype, fake_product product) {
    switch (product) {
    case PRODUCT_TRAINING: case PRODUCT_INFERENCE:
#ifdef BUG_RP1D_BF16
        if (dtype == ACL_BF16) /* bug: the 3-D page's product note applied to these pages */
            return false;
#endif
        /* fall through */
    case PRODUCT_A2: case PRODUCT_A3: case PRODUCT_950:
        switch (dtype) {
        case ACL_BF16: case ACL_FLOAT16: case ACL_FLOAT: case ACL_DOUBLE: case ACL_COMPLEX64:
        case ACL_COMPLEX128:
            return true;
        default:
            return false;
        }
    default:
        return false;
    }
}

/* dim == n + before + after, without overflow for any int64 padding. */
static bool padded_is(int64_t dim, int64_t n, int64_t before, int64_t after) {
    if (before <= -DIM_LIMIT || before >= DIM_LIMIT || after <= -DIM_LIMIT || after >= DIM_LIMIT)
        return false;
    return dim == n + before + after;
}

/* The size of self along padded axis j (0: the outermost padded axis) and its padding. */
static int64_t axis_dim(const aclTensor *t, int axes, int j) {
    return t->dims[t->rank - (uint64_t)axes + (uint64_t)j];
}
static int64_t before_of(const int64_t *p, int axes, int j) { return p[2 * (axes - 1 - j)]; }
static int64_t after_of(const int64_t *p, int axes, int j) { return p[2 * (axes - 1 - j) + 1]; }

static aclnnStatus check(const pad_page *page, const aclTensor *grad, const aclTensor *self,
                         const aclIntArray *padding, const aclTensor *grad_input) {
    fake_product product;
    aclnnStatus supported = fake_product_gate(PRODUCTS, &product);
    if (supported != ACLNN_SUCCESS)
        return supported; /* Atlas 200I/500 A2: not supported */
    /* RPxD-NULL */
    if (grad == NULL || self == NULL || padding == NULL || grad_input == NULL)
        return FAKE_NULL_STATUS;
    const aclTensor *const t[3] = {grad, self, grad_input};
    /* RPxD-DTYPE */
    for (int i = 0; i < 3; i++)
        if (!listed_dtype(t[i]->dtype, product))
            return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-DTYPE-SAME */
    for (int i = 1; i < 3; i++)
        if (t[i]->dtype != self->dtype)
            return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-FORMAT */
    for (int i = 0; i < 3; i++)
        if (t[i]->format != ACL_FORMAT_ND)
            return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-RANK: in range, and one rank for all three */
    for (int i = 0; i < 3; i++)
        if (t[i]->rank < page->rank_lo || t[i]->rank > page->rank_hi || t[i]->rank != self->rank)
            return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-SHAPE-IN */
    if (!fake_same_shape(self, grad_input))
        return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-PAD-LEN */
    if (padding->size != (uint64_t)(2 * page->axes))
        return ACLNN_ERR_PARAM_INVALID;
    const int64_t *p = padding->values;
    int axes = page->axes;
    /* RPxD-PAD-LIMIT: an error on the 2-D page; the 1-D page requires it without an error row
     * (unspecified), and this library rejects it there too, with the 2-D page's code. */
    for (int j = 0; j < axes; j++)
        if (before_of(p, axes, j) >= axis_dim(self, axes, j) || after_of(p, axes, j) >= axis_dim(self, axes, j))
            return ACLNN_ERR_PARAM_INVALID;
    /* RP2D-PAD-BF16: BFLOAT16 pads at most 7 */
    if (page->bf16_pad_max_7 && self->dtype == ACL_BF16)
        for (int i = 0; i < 2 * axes; i++)
            if (p[i] > 7)
                return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-SHAPE-OUT: the leading dims equal, each padded one n + before + after */
    for (uint64_t k = 0; k < self->rank - (uint64_t)axes; k++)
        if (grad->dims[k] != self->dims[k])
            return ACLNN_ERR_PARAM_INVALID;
    for (int j = 0; j < axes; j++)
        if (!padded_is(axis_dim(grad, axes, j), axis_dim(self, axes, j), before_of(p, axes, j),
                       after_of(p, axes, j)))
            return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-EMPTY: only the first dim may be 0 */
    for (uint64_t k = 1; k < self->rank; k++)
        if (self->dims[k] == 0)
            return ACLNN_ERR_PARAM_INVALID;
    /* RPxD-PAD-NEGATIVE (unspecified): accepted; a negative padding crops, as the reference does.
     * RPxD-LARGE (advisory): accepted, however large. */
    return ACLNN_SUCCESS;
}

/* Whether gradInput position q of an axis (n positions, before padding, m gradOutput positions)
 * receives anything: p reads clamp(p - before, 0, n - 1). Cropping leaves some unread. */
static bool axis_read(int64_t q, int64_t n, int64_t before, int64_t m) {
    int64_t lo = q == 0 ? 0 : q + before, hi = q == n - 1 ? m - 1 : q + before;
    return m > 0 && (lo > 0 ? lo : 0) <= (hi < m - 1 ? hi : m - 1);
}

static void accumulate(const aclOpExecutor *plan, double *acc, int width) {
    const aclTensor *grad = plan->tensors[GRAD], *self = plan->tensors[SELF];
    int axes = plan->pad_axes;
    uint64_t r = self->rank, first = r - (uint64_t)axes;
    int64_t acc_strides[FAKE_MAX_DIMS];
    fake_contiguous_strides(self->dims, r, acc_strides);
    fake_iter it;
    fake_iter_init(&it, grad->dims, r);
    int g = fake_iter_add(&it, grad->dims, grad->strides, r, grad->offset);
    int a = fake_iter_add(&it, self->dims, acc_strides, r, 0);
    for (uint64_t k = first; k < r; k++)
        it.strides[a][k] = 0; /* the padded axes are mapped below, by clamping */
    for (int64_t count = fake_numel(grad); count > 0; count--, fake_iter_next(&it)) {
        int64_t at = it.offset[a];
        for (int j = 0; j < axes; j++) {
            int64_t n = self->dims[first + j], q = it.index[first + j] - before_of(plan->padding, axes, j);
            at += (q < 0 ? 0 : q > n - 1 ? n - 1 : q) * acc_strides[first + j];
        }
        double re, im;
        fake_load(grad->data, grad->dtype, it.offset[g], &re, &im);
        acc[at * width] += re;
        if (width == 2)
            acc[at * width + 1] += im;
    }
}

static aclnnStatus pad_kernel(const aclOpExecutor *plan, void *workspace) {
    const aclTensor *grad = plan->tensors[GRAD], *self = plan->tensors[SELF];
    const aclTensor *out = plan->tensors[GRAD_INPUT];
    int axes = plan->pad_axes, width = fake_dtype_is_complex(out->dtype) ? 2 : 1;
    uint64_t r = self->rank, first = r - (uint64_t)axes;
    int64_t n = fake_numel(self);
    double *acc = workspace;
    for (int64_t i = 0; i < n * width; i++)
        acc[i] = -0.0; /* the identity of +: a lone -0.0 term stays -0.0, as in the reference */
    accumulate(plan, acc, width);
    fake_iter it;
    fake_iter_init(&it, self->dims, r);
    int o = fake_iter_add(&it, out->dims, out->strides, r, out->offset);
    for (int64_t i = 0; i < n; i++, fake_iter_next(&it)) {
        bool read = true; /* a position cropping leaves unread gets 0, as the reference gives */
        for (int j = 0; j < axes; j++)
            read = read && axis_read(it.index[first + j], self->dims[first + j],
                                     before_of(plan->padding, axes, j), grad->dims[first + j]);
        double re = read ? acc[i * width] : 0.0, im = read && width == 2 ? acc[i * width + 1] : 0.0;
        fake_store(out->data, out->dtype, it.offset[o], re, im);
    }
    return ACLNN_SUCCESS;
}

static aclnnStatus plan_pad(const pad_page *page, const aclTensor *grad_output, const aclTensor *self,
                            const aclIntArray *padding, aclTensor *grad_input,
                            uint64_t *workspace_size, aclOpExecutor **executor) {
    if (workspace_size == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    *workspace_size = 0;
    *executor = NULL;
    aclnnStatus status = check(page, grad_output, self, padding, grad_input);
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
    plan->pad_axes = page->axes;
    for (int j = 0; j < 2 * page->axes; j++)
        plan->padding[j] = padding->values[j];
    *workspace_size = need;
    *executor = plan;
    return ACLNN_SUCCESS;
}

FAKE_API aclnnStatus aclnnReplicationPad1dBackwardGetWorkspaceSize(
    const aclTensor *grad_output, const aclTensor *self, const aclIntArray *padding,
    aclTensor *grad_input, uint64_t *workspace_size, aclOpExecutor **executor) {
    return plan_pad(&PAGE_1D, grad_output, self, padding, grad_input, workspace_size, executor);
}

FAKE_API aclnnStatus aclnnReplicationPad1dBackward(void *workspace, uint64_t workspace_size,
                                                  aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}

FAKE_API aclnnStatus aclnnReplicationPad2dBackwardGetWorkspaceSize(
    const aclTensor *grad_output, const aclTensor *self, const aclIntArray *padding,
    aclTensor *grad_input, uint64_t *workspace_size, aclOpExecutor **executor) {
    return plan_pad(&PAGE_2D, grad_output, self, padding, grad_input, workspace_size, executor);
}

FAKE_API aclnnStatus aclnnReplicationPad2dBackward(void *workspace, uint64_t workspace_size,
                                                  aclOpExecutor *executor, aclrtStream stream) {
    return fake_execute(workspace, workspace_size, executor, stream);
}
