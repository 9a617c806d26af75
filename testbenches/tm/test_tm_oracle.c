/* Unit tests of the serializability oracle: a serial history passes; a lost
 * update, a stale read, write skew and a wrong final memory fail with a
 * message naming the transaction and address. */
#include <string.h>

#include "sparse_memory.h"
#include "test_support.h"
#include "tm_oracle.h"

static bool read_memory(void *context, uint64_t address, void *data, size_t size)
{
    sparse_memory_read(context, address, data, size);
    return true;
}

static tm_oracle_access word(uint64_t address, uint64_t value)
{
    return (tm_oracle_access){address, value, 4};
}

static void serial_history_passes(void)
{
    sparse_memory *initial = sparse_memory_create(), *final = sparse_memory_create();
    uint32_t x = 10;
    sparse_memory_write(initial, 0x100, &x, 4);
    tm_oracle *o = tm_oracle_create(read_memory, initial);
    /* T1: x += 1; T2: y = x; T3: x += y (bytes and words mixed). */
    tm_oracle_access r1[] = {word(0x100, 10)}, w1[] = {word(0x100, 11)};
    CHECK(tm_oracle_commit(o, 1, r1, 1, w1, 1));
    tm_oracle_access r2[] = {word(0x100, 11)}, w2[] = {word(0x200, 11)};
    CHECK(tm_oracle_commit(o, 2, r2, 1, w2, 1));
    tm_oracle_access r3[] = {word(0x100, 11), word(0x200, 11), {0x101, 0, 1}}, w3[] = {word(0x100, 22)};
    CHECK(tm_oracle_commit(o, 3, r3, 3, w3, 1));
    /* A read-only transaction and one reading never-written memory. */
    tm_oracle_access r4[] = {word(0x300, 0), word(0x200, 11)};
    CHECK(tm_oracle_commit(o, 4, r4, 2, NULL, 0));
    uint32_t v = 22, y = 11;
    sparse_memory_write(final, 0x100, &v, 4);
    sparse_memory_write(final, 0x200, &y, 4);
    CHECK(tm_oracle_check_final(o, read_memory, final) == NULL);
    CHECK_EQUAL(tm_oracle_commit_count(o), 4);
    tm_oracle_destroy(o);
    sparse_memory_destroy(initial);
    sparse_memory_destroy(final);
}

static void lost_update_fails(void)
{
    sparse_memory *initial = sparse_memory_create();
    tm_oracle *o = tm_oracle_create(read_memory, initial);
    /* Both read x = 0 and write x = 1: the second read is stale. */
    tm_oracle_access r[] = {word(0x40, 0)}, w[] = {word(0x40, 1)};
    CHECK(tm_oracle_commit(o, 5, r, 1, w, 1));
    CHECK(!tm_oracle_commit(o, 6, r, 1, w, 1));
    const char *error = tm_oracle_error(o);
    CHECK(error != NULL);
    if (error) {
        CHECK_CONTAINS(error, "transaction 6");
        CHECK_CONTAINS(error, "0x40");
        CHECK_CONTAINS(error, "serial replay has 0x1");
    }
    tm_oracle_destroy(o);
    sparse_memory_destroy(initial);
}

static void stale_read_fails(void)
{
    sparse_memory *initial = sparse_memory_create();
    uint32_t x = 3;
    sparse_memory_write(initial, 0x80, &x, 4);
    tm_oracle *o = tm_oracle_create(read_memory, initial);
    tm_oracle_access r[] = {word(0x80, 4)}; /* never held 4 */
    CHECK(!tm_oracle_commit(o, 9, r, 1, NULL, 0));
    CHECK(tm_oracle_error(o) && strstr(tm_oracle_error(o), "transaction 9") && strstr(tm_oracle_error(o), "0x80"));
    tm_oracle_destroy(o);
    sparse_memory_destroy(initial);
}

static void write_skew_fails(void)
{
    sparse_memory *initial = sparse_memory_create();
    tm_oracle *o = tm_oracle_create(read_memory, initial);
    /* Invariant x + y <= 1: T1 reads both, sets x; T2 reads both, sets y. */
    tm_oracle_access r[] = {word(0x10, 0), word(0x14, 0)};
    tm_oracle_access w1[] = {word(0x10, 1)}, w2[] = {word(0x14, 1)};
    CHECK(tm_oracle_commit(o, 1, r, 2, w1, 1));
    CHECK(!tm_oracle_commit(o, 2, r, 2, w2, 1));
    CHECK(tm_oracle_error(o) && strstr(tm_oracle_error(o), "transaction 2") && strstr(tm_oracle_error(o), "0x10"));
    tm_oracle_destroy(o);
    sparse_memory_destroy(initial);
}

static void wrong_final_memory_fails(void)
{
    sparse_memory *initial = sparse_memory_create(), *final = sparse_memory_create();
    tm_oracle *o = tm_oracle_create(read_memory, initial);
    tm_oracle_access w1[] = {word(0x20, 1)}, w2[] = {word(0x20, 2)};
    CHECK(tm_oracle_commit(o, 1, NULL, 0, w1, 1));
    CHECK(tm_oracle_commit(o, 2, NULL, 0, w2, 1));
    uint32_t v = 1; /* the writes landed in the wrong order */
    sparse_memory_write(final, 0x20, &v, 4);
    const char *error = tm_oracle_check_final(o, read_memory, final);
    CHECK(error != NULL);
    if (error) CHECK_CONTAINS(error, "final memory at 0x20");
    tm_oracle_destroy(o);
    sparse_memory_destroy(initial);
    sparse_memory_destroy(final);
}

int main(void)
{
    serial_history_passes();
    lost_update_fails();
    stale_read_fails();
    write_skew_fails();
    wrong_final_memory_fails();
    return simtx_test_summary();
}
