#include "rv32_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rv32_float.h"

#define RETURN_SENTINEL 0xfffffff0u /* ra at entry: returning there ends the thread */

/* steps: the instructions run so far, the thread's clock (no timing here). */
static uint32_t csr(const rv_reference_thread *t, unsigned number, uint64_t steps, bool *ok)
{
    uint32_t linear = t->thread[0] + t->block_dim[0] * (t->thread[1] + t->block_dim[1] * t->thread[2]);
    *ok = true;
    switch (number) {
    case RV_CSR_TID_X: case RV_CSR_TID_Y: case RV_CSR_TID_Z: return t->thread[number - RV_CSR_TID_X];
    case RV_CSR_NTID_X: case RV_CSR_NTID_Y: case RV_CSR_NTID_Z: return t->block_dim[number - RV_CSR_NTID_X];
    case RV_CSR_CTAID_X: case RV_CSR_CTAID_Y: case RV_CSR_CTAID_Z: return t->block[number - RV_CSR_CTAID_X];
    case RV_CSR_NCTAID_X: case RV_CSR_NCTAID_Y: case RV_CSR_NCTAID_Z: return t->grid_dim[number - RV_CSR_NCTAID_X];
    case RV_CSR_WARP_ID: return linear / t->warp_size;
    case RV_CSR_LANE_ID: return linear % t->warp_size;
    case RV_CSR_WARP_SIZE: return t->warp_size;
    case RV_CSR_CYCLE: case RV_CSR_TIME: return (uint32_t)steps;
    case RV_CSR_CYCLEH: case RV_CSR_TIMEH: return (uint32_t)(steps >> 32);
    default: *ok = false; return 0;
    }
}

bool rv_reference_run(const kernel_image *image, uint32_t entry_pc, const rv_reference_thread *thread,
                      rv_reference_access access, void *context, uint64_t max_steps, uint64_t *steps, char *error,
                      size_t error_size)
{
    uint32_t x[RV_REGISTERS] = {0}; /* x0-x31, f0-f31 */
    uint32_t fcsr = 0;
    uint8_t *local = calloc(1, thread->local_bytes);
    if (!local) {
        snprintf(error, error_size, "out of memory");
        return false;
    }
    x[1] = RETURN_SENTINEL;
    x[2] = RV_LOCAL_BASE + thread->local_bytes;
    x[10] = thread->args_address;
    uint32_t pc = entry_pc;
    uint64_t n = 0;
    bool reserved = false; /* lr/sc: a thread alone keeps its reservation */
    uint32_t reserved_address = 0, reserved_value = 0;
    bool ok = true;
    char where[200];
    for (; pc != RETURN_SENTINEL; n++) {
        if (n >= max_steps) {
            snprintf(error, error_size, "reference: thread did not finish within %llu instructions", (unsigned long long)max_steps);
            ok = false;
            break;
        }
        const kernel_insn *k = kernel_image_insn(image, pc);
        if (!k) {
            snprintf(error, error_size, "reference: jumped outside the text to 0x%x", pc);
            ok = false;
            break;
        }
        const rv_insn *i = &k->insn;
        rv_op op = (rv_op)i->op;
        uint32_t a = x[i->rs1], b = x[i->rs2], result = 0, next = pc + 4;
        bool write = true;
        switch (rv_class_of(op)) {
        case RV_CLASS_ALU: case RV_CLASS_MUL: case RV_CLASS_DIV:
            if (op == RV_LUI) result = (uint32_t)i->imm;
            else if (op == RV_AUIPC) result = pc + (uint32_t)i->imm;
            else result = rv_compute(op, a, (i->raw & 0x7f) == 0x13 ? (uint32_t)i->imm : b);
            break;
        case RV_CLASS_BRANCH:
            write = false;
            if (rv_branch_taken(op, a, b)) next = pc + (uint32_t)i->imm;
            break;
        case RV_CLASS_JUMP:
            result = pc + 4;
            next = op == RV_JAL ? pc + (uint32_t)i->imm : (a + (uint32_t)i->imm) & ~1u;
            break;
        case RV_CLASS_CSR: {
            bool known;
            result = csr(thread, (unsigned)i->imm, n, &known);
            if (!known) {
                kernel_image_describe_pc(image, pc, where, sizeof where);
                snprintf(error, error_size, "reference: unknown CSR at %s", where);
                ok = false;
            }
            break;
        }
        case RV_CLASS_LOAD: case RV_CLASS_STORE: case RV_CLASS_ATOMIC: {
            if (op == RV_CLWB) { /* no effect on values: a thread alone has no caches */
                write = false;
                break;
            }
            unsigned size = rv_access_size(op);
            rv_class cls = rv_class_of(op);
            uint32_t address = a + (uint32_t)(cls == RV_CLASS_ATOMIC ? 0 : i->imm), old = 0;
            rv_window window = rv_window_of(address);
            bool fine = window != RV_WINDOW_NONE && !(address & (size - 1)) && (window != RV_WINDOW_CODE || cls == RV_CLASS_LOAD);
            if (fine && window == RV_WINDOW_LOCAL) {
                uint32_t offset = address - RV_LOCAL_BASE;
                fine = offset + size <= thread->local_bytes;
                if (fine) {
                    memcpy(&old, local + offset, size);
                    uint32_t value = cls == RV_CLASS_STORE ? b : rv_amo_apply(op, old, b);
                    if (cls != RV_CLASS_LOAD) memcpy(local + offset, &value, size);
                }
            } else if (fine && window == RV_WINDOW_CODE) {
                fine = kernel_image_read_code(image, address, &old, size);
            } else if (fine && (op == RV_LR || op == RV_SC)) {
                fine = access(context, false, address, &old, size);
                if (op == RV_LR) {
                    reserved = true, reserved_address = address, reserved_value = old;
                } else {
                    bool success = reserved && reserved_address == address && reserved_value == old;
                    if (fine && success) fine = access(context, true, address, &b, size);
                    old = success ? 0 : 1;
                    reserved = false;
                }
            } else if (fine) {
                fine = access(context, false, address, &old, size);
                uint32_t value = cls == RV_CLASS_STORE ? b : rv_amo_apply(op, old, b);
                if (fine && cls != RV_CLASS_LOAD) fine = access(context, true, address, &value, size);
            }
            if (!fine) {
                kernel_image_describe_pc(image, pc, where, sizeof where);
                snprintf(error, error_size, "reference: bad access to 0x%08x at %s", address, where);
                ok = false;
            }
            write = cls != RV_CLASS_STORE;
            result = cls == RV_CLASS_LOAD ? rv_extend_load(op, old) : old;
            break;
        }
        case RV_CLASS_FLOAT: {
            unsigned rm = rv_float_rounding(i, fcsr);
            if (op == RV_FCSR_ACCESS) {
                result = rv_fcsr_access(i, a, &fcsr);
            } else if (rm == RV_RM_DYNAMIC && rv_float_rounds(op)) {
                kernel_image_describe_pc(image, pc, where, sizeof where);
                snprintf(error, error_size, "reference: reserved rounding mode at %s", where);
                ok = false;
            } else {
                result = rv_float_compute(op, rm, a, b, x[rv_is_fused(op) ? rv_rs3(i) : 0], &fcsr);
            }
            break;
        }
        case RV_CLASS_FENCE: write = false; break;
        case RV_CLASS_TX: /* a thread alone never conflicts: every transaction commits */
            write = i->op == RV_TX_COMMIT;
            result = 1;
            break;
        case RV_CLASS_EXIT: write = false; next = RETURN_SENTINEL; break;
        default:
            kernel_image_describe_pc(image, pc, where, sizeof where);
            snprintf(error, error_size, "reference: cannot execute %s", where);
            ok = false;
            break;
        }
        if (!ok) break;
        if (write && i->rd) x[i->rd] = result;
        pc = next;
    }
    free(local);
    if (steps) *steps = n;
    return ok;
}
