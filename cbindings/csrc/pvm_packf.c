/*
 * pvm_packf, pvm_unpackf, pvm_vpackf, pvm_vunpackf: packing and unpacking
 * driven by a printf-like format.
 *
 * C variadic functions cannot be written in stable Rust, so this file
 * reads the format and the arguments and hands each item to the Rust
 * library through one internal entry point, mpbridge_pvm_fmt_item(), which
 * does not report errors; a failure is reported once, under the name of
 * the call the program made, through lpvmerr().
 *
 * Format (pvm_pack(3PVM)):
 *
 *     format : [ "%+" ] conversion*
 *     conversion : '%' [ count | '*' ] [ '.' ( stride | '*' ) ] modifier* kind
 *     modifier : 'h' (short) | 'l' (long; double for f) | 'u' (unsigned)
 *     kind : 'c' bytes | 'd' integers | 'f' floats | 'x' complex | 's' string
 *
 * "%+" (pvm_packf only, at the start) takes an int encoding and calls
 * pvm_initsend() with it.  A '*' count or stride takes an int argument.
 * With a count or a stride the item argument is the address of the first
 * element; without either pvm_packf takes the value itself for c, d and f
 * (c, h and f as promoted by the call: int, int, double), while x and s
 * always take an address, and pvm_unpackf always takes addresses.
 * Characters outside conversions are ignored.  An unknown kind is
 * PvmBadParam.  Values are copied even into a PvmDataInPlace buffer (their
 * storage does not outlive the call); addresses follow the buffer's
 * encoding.
 */

#include <stddef.h>

#include "../include/pvm3.h"

/* Exported by the Rust part of the library. */
int lpvmerr(const char *fn, int code);
int mpbridge_pvm_fmt_item(int dir, int what, void *p, int nitem, int stride);

enum {
    DIR_PACK_ADDR = 0,  /* pack from an address */
    DIR_PACK_VALUE = 1, /* pack a copy of a value */
    DIR_UNPACK = 2      /* unpack to an address */
};

/* One parsed conversion. */
struct conv {
    int count;
    int stride;
    int by_value; /* neither count nor stride given */
    int h, l, u;
    char kind;
};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int read_number(const char **pp)
{
    int n = 0;
    while (is_digit(**pp)) {
        n = n * 10 + (**pp - '0');
        (*pp)++;
    }
    return n;
}

/* Reads one conversion; *pp points just after its '%' and is advanced. */
static int parse_conv(const char **pp, va_list *ap, struct conv *c)
{
    const char *p = *pp;
    int more = 1;

    c->count = 1;
    c->stride = 1;
    c->by_value = 1;
    c->h = c->l = c->u = 0;
    if (*p == '*') {
        c->count = va_arg(*ap, int);
        c->by_value = 0;
        p++;
    } else if (is_digit(*p)) {
        c->count = read_number(&p);
        c->by_value = 0;
    }
    if (*p == '.') {
        c->by_value = 0;
        p++;
        if (*p == '*') {
            c->stride = va_arg(*ap, int);
            p++;
        } else if (is_digit(*p)) {
            c->stride = read_number(&p);
        }
    }
    while (more) {
        switch (*p) {
        case 'h': c->h = 1; p++; break;
        case 'l': c->l = 1; p++; break;
        case 'u': c->u = 1; p++; break;
        default: more = 0; break;
        }
    }
    c->kind = *p;
    if (*p)
        p++;
    *pp = p;
    return PvmOk;
}

static int item(int dir, int what, void *p, int n, int stride)
{
    return mpbridge_pvm_fmt_item(dir, what, p, n, stride);
}

/* The datatype of an integer conversion. */
static int int_type(const struct conv *c)
{
    if (c->l)
        return c->u ? PVM_ULONG : PVM_LONG;
    if (c->h)
        return c->u ? PVM_USHORT : PVM_SHORT;
    return c->u ? PVM_UINT : PVM_INT;
}

static int pack_one(const struct conv *c, va_list *ap)
{
    int n = c->count, s = c->stride;

    switch (c->kind) {
    case 'c':
        if (c->by_value) {
            char v = (char)va_arg(*ap, int);
            return item(DIR_PACK_VALUE, PVM_BYTE, &v, 1, 1);
        }
        return item(DIR_PACK_ADDR, PVM_BYTE, va_arg(*ap, char *), n, s);
    case 'd':
        if (!c->by_value)
            return item(DIR_PACK_ADDR, int_type(c), va_arg(*ap, void *), n, s);
        if (c->l) {
            long v = va_arg(*ap, long);
            return item(DIR_PACK_VALUE, int_type(c), &v, 1, 1);
        }
        if (c->h) {
            short v = (short)va_arg(*ap, int);
            return item(DIR_PACK_VALUE, int_type(c), &v, 1, 1);
        } else {
            int v = va_arg(*ap, int);
            return item(DIR_PACK_VALUE, int_type(c), &v, 1, 1);
        }
    case 'f':
        if (!c->by_value)
            return item(DIR_PACK_ADDR, c->l ? PVM_DOUBLE : PVM_FLOAT,
                        va_arg(*ap, void *), n, s);
        if (c->l) {
            double v = va_arg(*ap, double);
            return item(DIR_PACK_VALUE, PVM_DOUBLE, &v, 1, 1);
        } else {
            float v = (float)va_arg(*ap, double);
            return item(DIR_PACK_VALUE, PVM_FLOAT, &v, 1, 1);
        }
    case 'x':
        return item(DIR_PACK_ADDR, c->l ? PVM_DCPLX : PVM_CPLX,
                    va_arg(*ap, void *), n, s);
    case 's':
        return item(DIR_PACK_ADDR, PVM_STR, va_arg(*ap, char *), 1, 1);
    default:
        return PvmBadParam;
    }
}

static int unpack_one(const struct conv *c, va_list *ap)
{
    int n = c->count, s = c->stride;

    switch (c->kind) {
    case 'c':
        return item(DIR_UNPACK, PVM_BYTE, va_arg(*ap, char *), n, s);
    case 'd':
        return item(DIR_UNPACK, int_type(c), va_arg(*ap, void *), n, s);
    case 'f':
        return item(DIR_UNPACK, c->l ? PVM_DOUBLE : PVM_FLOAT,
                    va_arg(*ap, void *), n, s);
    case 'x':
        return item(DIR_UNPACK, c->l ? PVM_DCPLX : PVM_CPLX,
                    va_arg(*ap, void *), n, s);
    case 's':
        return item(DIR_UNPACK, PVM_STR, va_arg(*ap, char *), 1, 1);
    default:
        return PvmBadParam;
    }
}

/* Walks the format; `pack` selects the direction. */
static int run_format(const char *fmt, va_list *ap, int pack)
{
    const char *p = fmt;
    int cc;

    if (!fmt)
        return PvmBadParam;
    if (pack && p[0] == '%' && p[1] == '+') {
        int enc = va_arg(*ap, int);
        if ((cc = pvm_initsend(enc)) < 0)
            return cc;
        p += 2;
    }
    if ((pack ? pvm_getsbuf() : pvm_getrbuf()) <= 0)
        return PvmNoBuf;
    while (*p) {
        struct conv c;
        if (*p++ != '%')
            continue;
        if ((cc = parse_conv(&p, ap, &c)) < 0)
            return cc;
        cc = pack ? pack_one(&c, ap) : unpack_one(&c, ap);
        if (cc < 0)
            return cc;
    }
    return PvmOk;
}

static int finish(const char *name, int cc)
{
    if (cc < 0)
        lpvmerr(name, cc);
    return cc;
}

int pvm_vpackf(const char *fmt, va_list ap)
{
    va_list aq;
    int cc;

    va_copy(aq, ap);
    cc = run_format(fmt, &aq, 1);
    va_end(aq);
    return finish("pvm_packf", cc);
}

int pvm_vunpackf(const char *fmt, va_list ap)
{
    va_list aq;
    int cc;

    va_copy(aq, ap);
    cc = run_format(fmt, &aq, 0);
    va_end(aq);
    return finish("pvm_unpackf", cc);
}

int pvm_packf(const char *fmt, ...)
{
    va_list ap;
    int cc;

    va_start(ap, fmt);
    cc = run_format(fmt, &ap, 1);
    va_end(ap);
    return finish("pvm_packf", cc);
}

int pvm_unpackf(const char *fmt, ...)
{
    va_list ap;
    int cc;

    va_start(ap, fmt);
    cc = run_format(fmt, &ap, 0);
    va_end(ap);
    return finish("pvm_unpackf", cc);
}
