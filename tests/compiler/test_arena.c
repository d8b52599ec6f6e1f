/* Arena, Vec and Buf helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gfc.h"

#include <string.h>

static void arena_zeroed_and_aligned(void **state)
{
    (void)state;
    Arena *a = arena_new();
    for (int i = 1; i < 2000; i += 37) {
        unsigned char *p = arena_alloc(a, (size_t)i);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        for (int j = 0; j < i; j++)
            assert_int_equal(p[j], 0);
        memset(p, 0xab, (size_t)i);
    }
    /* a block bigger than any chunk */
    char *big = arena_alloc(a, 1 << 22);
    assert_non_null(big);
    assert_int_equal(big[(1 << 22) - 1], 0);
    arena_free(a);
}

static void arena_strings(void **state)
{
    (void)state;
    Arena *a = arena_new();
    char *s = arena_strdup(a, "hello");
    assert_string_equal(s, "hello");
    assert_string_equal(arena_printf(a, "%s-%d-%.1f", s, 42, 1.5), "hello-42-1.5");
    char longer[3000];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    char *l = arena_printf(a, "<%s>", longer);
    assert_int_equal(strlen(l), sizeof longer + 1);
    assert_int_equal(l[0], '<');
    assert_int_equal(l[sizeof longer], '>');
    arena_free(a);
}

static void vec_grows(void **state)
{
    (void)state;
    Arena *a = arena_new();
    Vec v = {0};
    static int items[1000];
    for (int i = 0; i < 1000; i++) {
        items[i] = i;
        vec_push(a, &v, &items[i]);
    }
    assert_int_equal(v.len, 1000);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(*(int *)vec_at(&v, i), i);
    arena_free(a);
}

static void buf_printf_and_lines(void **state)
{
    (void)state;
    Buf b = {0};
    buf_puts(&b, "a");
    buf_printf(&b, "%d", 12);
    b.indent = 2;
    buf_line(&b, "x = %s;", "y");
    assert_string_equal(b.data, "a12        x = y;\n");
    assert_int_equal(b.len, strlen(b.data));
    /* growth past the initial capacity keeps the contents */
    for (int i = 0; i < 10000; i++)
        buf_puts(&b, "z");
    assert_int_equal(b.len, strlen("a12        x = y;\n") + 10000);
    assert_int_equal(b.data[b.len - 1], 'z');
    assert_int_equal(b.data[b.len], '\0');
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arena_zeroed_and_aligned),
        cmocka_unit_test(arena_strings),
        cmocka_unit_test(vec_grows),
        cmocka_unit_test(buf_printf_and_lines),
    };
    return cmocka_run_group_tests_name("arena", tests, NULL, NULL);
}
