/* arena.c - memory for one translation unit (freed at once), pointer
 * vectors in the arena, and growable text buffers for code generation. */
#include "gfc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char mem[];
} Chunk;

struct Arena {
    Chunk *head;
};

_Noreturn void gfc_panic(const char *file, int line, const char *what)
{
    fprintf(stderr, "gpufuse: internal error at %s:%d: %s\n"
                    "please report this with the input file\n", file, line, what);
    abort();
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "gpufuse: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

Arena *arena_new(void)
{
    Arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    return a;
}

void arena_free(Arena *a)
{
    if (!a)
        return;
    for (Chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    Chunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        c = xmalloc(sizeof *c + cap);
        c->cap = cap;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->mem + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = arena_alloc(a, n);
    memcpy(p, s, n);
    return p;
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

bool vec_has(const Vec *v, const void *x)
{
    for (int i = 0; i < v->len; i++)
        if (v->data[i] == x)
            return true;
    return false;
}

void vec_push(Arena *a, Vec *v, void *item)
{
    if (v->len == v->cap) {
        int cap = v->cap ? v->cap * 2 : 8;
        void **d = arena_alloc(a, sizeof(void *) * (size_t)cap);
        if (v->len)
            memcpy(d, v->data, sizeof(void *) * (size_t)v->len);
        v->data = d;
        v->cap = cap;
    }
    v->data[v->len++] = item;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            fprintf(stderr, "gpufuse: out of memory\n");
            exit(1);
        }
        b->data = d;
        b->cap = cap;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
    va_end(ap2);
}

void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void buf_puts(Buf *b, const char *s)
{
    buf_printf(b, "%s", s);
}

void buf_line(Buf *b, const char *fmt, ...)
{
    for (int i = 0; i < b->indent; i++)
        buf_puts(b, "    ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
    buf_puts(b, "\n");
}

void buf_free(Buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

/* Runs fn(arg) on a thread whose stack holds GFC_STACK bytes.  The front end
 * and the passes recurse over the expression tree: an expression nested as
 * deep as the front end allows (MAX_EXPR_DEPTH in parse.c) must not overflow the
 * process's stack, even with sanitizers' larger frames.  Clang's driver does
 * the same for its own recursion.  Falls back to the calling thread when no
 * thread can be made. */
#define GFC_STACK ((size_t)512 << 20)

typedef struct {
    void (*fn)(void *);
    void *arg;
} StackCall;

static void *stack_trampoline(void *p)
{
    StackCall *c = p;
    c->fn(c->arg);
    return NULL;
}

void gfc_with_stack(void (*fn)(void *), void *arg)
{
    StackCall c = {fn, arg};
    pthread_attr_t at;
    pthread_t t;
    if (pthread_attr_init(&at) == 0) {
        bool ok = pthread_attr_setstacksize(&at, GFC_STACK) == 0 &&
                  pthread_create(&t, &at, stack_trampoline, &c) == 0;
        pthread_attr_destroy(&at);
        if (ok) {
            pthread_join(t, NULL);
            return;
        }
    }
    fn(arg);
}

void strvec_push(StrVec *s, const char *x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = realloc(s->v, sizeof(char *) * (size_t)s->cap);
        if (!s->v) {
            fprintf(stderr, "gpufuse: out of memory\n");
            exit(1);
        }
    }
    s->v[s->n++] = x;
}
