/* Element access by aclDataType: every value is read exactly into double and rounded once, to
 * nearest even, into the output dtype. FLOAT16 and BFLOAT16 are converted by bit manipulation
 * straight from double (going through float would round twice). */
#include <math.h>
#include <string.h>

#include "fake_acl.h"

int64_t fake_dtype_size(int dtype) {
    switch (dtype) {
    case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
    }
}

bool fake_dtype_is_complex(int dtype) {
    return dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128;
}

/* x rounded to nearest even in a binary format of exp_bits exponent and man_bits mantissa bits
 * (sign on top), subnormals and overflow to infinity included. */
static uint32_t round_to_small(double x, int exp_bits, int man_bits) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    uint32_t sign = (uint32_t)(b >> 63) << (exp_bits + man_bits);
    int biased = (int)((b >> 52) & 0x7ff);
    uint64_t man = b & ((1ULL << 52) - 1);
    uint32_t inf = ((1U << exp_bits) - 1) << man_bits;
    if (biased == 0x7ff) /* inf, or NaN kept quiet with its top payload bits */
        return sign | inf | (man ? (1U << (man_bits - 1)) | (uint32_t)(man >> (52 - man_bits)) : 0);
    if (biased == 0)
        return sign; /* zero or a double subnormal: below half the smallest subnormal here */
    int bias = (1 << (exp_bits - 1)) - 1, emin = 1 - bias, e = biased - 1023;
    if (e > bias)
        return sign | inf;
    uint64_t sig = man, base = (uint64_t)(e + bias) << man_bits;
    int shift = 52 - man_bits;
    if (e < emin) { /* a subnormal result: the implicit bit joins the shifted significand */
        sig = man | (1ULL << 52);
        base = 0;
        shift += emin - e;
        if (shift > 63)
            return sign;
    }
    uint64_t keep = sig >> shift, rem = sig & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
    if (rem > half || (rem == half && (keep & 1)))
        keep += 1; /* a carry moves into the exponent: the next binade, or infinity */
    return sign | (uint32_t)(base + keep);
}

static double small_to_double(uint32_t bits, int exp_bits, int man_bits) {
    int bias = (1 << (exp_bits - 1)) - 1;
    uint32_t e = (bits >> man_bits) & ((1U << exp_bits) - 1), m = bits & ((1U << man_bits) - 1);
    double v;
    if (e == (1U << exp_bits) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - man_bits);
    else
        v = ldexp((double)(m | (1U << man_bits)), (int)e - bias - man_bits);
    return (bits >> (exp_bits + man_bits)) & 1 ? -v : v;
}

uint16_t fake_double_to_half(double x) { return (uint16_t)round_to_small(x, 5, 10); }
uint16_t fake_double_to_bf16(double x) { return (uint16_t)round_to_small(x, 8, 7); }
double fake_half_to_double(uint16_t bits) { return small_to_double(bits, 5, 10); }
double fake_bf16_to_double(uint16_t bits) { return small_to_double(bits, 8, 7); }

void fake_load(const void *data, int dtype, int64_t i, double *re, double *im) {
    *im = 0.0;
    switch (dtype) {
    case ACL_FLOAT16: *re = fake_half_to_double(((const uint16_t *)data)[i]); break;
    case ACL_BF16: *re = fake_bf16_to_double(((const uint16_t *)data)[i]); break;
    case ACL_FLOAT: *re = ((const float *)data)[i]; break;
    case ACL_DOUBLE: *re = ((const double *)data)[i]; break;
    case ACL_COMPLEX64:
        *re = ((const float *)data)[2 * i];
        *im = ((const float *)data)[2 * i + 1];
        break;
    case ACL_COMPLEX128:
        *re = ((const double *)data)[2 * i];
        *im = ((const double *)data)[2 * i + 1];
        break;
    default: *re = 0.0; /* the operators reject every other dtype in phase 1 */
    }
}

/* A real output keeps the real part. (float) rounds to nearest even, overflowing to infinity. */
void fake_store(void *data, int dtype, int64_t i, double re, double im) {
    switch (dtype) {
    case ACL_FLOAT16: ((uint16_t *)data)[i] = fake_double_to_half(re); break;
    case ACL_BF16: ((uint16_t *)data)[i] = fake_double_to_bf16(re); break;
    case ACL_FLOAT: ((float *)data)[i] = (float)re; break;
    case ACL_DOUBLE: ((double *)data)[i] = re; break;
    case ACL_COMPLEX64:
        ((float *)data)[2 * i] = (float)re;
        ((float *)data)[2 * i + 1] = (float)im;
        break;
    case ACL_COMPLEX128:
        ((double *)data)[2 * i] = re;
        ((double *)data)[2 * i + 1] = im;
        break;
    default: break;
    }
}
