/* RV32IMAF + simtx custom ops: decoding, disassembly and the per-lane
 * arithmetic shared by the SIMT core and the scalar reference interpreter. */
#ifndef SIMTX_RV32_H
#define SIMTX_RV32_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Address windows (keep in sync with runtime/kernel/kernel.ld and runtime/kernel/gpu.h). */
#define RV_CODE_BASE 0x00000000u
#define RV_CODE_END 0x10000000u
#define RV_GLOBAL_BASE 0x10000000u
#define RV_GLOBAL_END 0x80000000u
#define RV_SHARED_BASE 0x80000000u
#define RV_SHARED_END 0x90000000u
#define RV_PERSISTENT_BASE 0xa0000000u
#define RV_PERSISTENT_END 0xc0000000u
#define RV_LOCAL_BASE 0xf0000000u

typedef enum rv_window { RV_WINDOW_NONE, RV_WINDOW_CODE, RV_WINDOW_GLOBAL, RV_WINDOW_SHARED, RV_WINDOW_PERSISTENT, RV_WINDOW_LOCAL } rv_window;

static inline rv_window rv_window_of(uint32_t address)
{
    if (address < RV_CODE_END) return RV_WINDOW_CODE;
    if (address < RV_GLOBAL_END) return RV_WINDOW_GLOBAL;
    if (address < RV_SHARED_END) return RV_WINDOW_SHARED;
    if (address >= RV_PERSISTENT_BASE && address < RV_PERSISTENT_END) return RV_WINDOW_PERSISTENT;
    if (address >= RV_LOCAL_BASE) return RV_WINDOW_LOCAL;
    return RV_WINDOW_NONE;
}

/* Register indices of rv_insn: x0-x31 are 0-31, the F extension's f0-f31
 * are 32-63 (one index space, so that the scoreboard and the LD/ST path
 * treat flw/fsw like lw/sw). */
#define RV_FLOAT_REGISTER(n) (32u + (n))
#define RV_REGISTERS 64

/* Standard CSRs: the F extension's (fcsr = frm << 5 | fflags) and the
 * counters (cycle: the core's clock; instret: the warp's instructions). */
enum {
    RV_CSR_FFLAGS = 0x001, RV_CSR_FRM = 0x002, RV_CSR_FCSR = 0x003,
    RV_CSR_CYCLE = 0xc00, RV_CSR_TIME = 0xc01, RV_CSR_INSTRET = 0xc02,
    RV_CSR_CYCLEH = 0xc80, RV_CSR_TIMEH = 0xc81, RV_CSR_INSTRETH = 0xc82
};

/* Custom read-only CSRs (runtime/kernel/gpu.h). */
enum {
    RV_CSR_TID_X = 0xcc0, RV_CSR_TID_Y, RV_CSR_TID_Z,
    RV_CSR_NTID_X, RV_CSR_NTID_Y, RV_CSR_NTID_Z,
    RV_CSR_CTAID_X, RV_CSR_CTAID_Y, RV_CSR_CTAID_Z,
    RV_CSR_NCTAID_X, RV_CSR_NCTAID_Y, RV_CSR_NCTAID_Z,
    RV_CSR_WARP_ID, RV_CSR_LANE_ID, RV_CSR_WARP_SIZE,
    RV_CSR_DYNAMIC_SHARED /* the address of the CTA's dynamic shared memory (simt_launch) */
};

typedef enum rv_op {
    RV_ILLEGAL,
    RV_LUI, RV_AUIPC, RV_JAL, RV_JALR,
    RV_BEQ, RV_BNE, RV_BLT, RV_BGE, RV_BLTU, RV_BGEU,
    RV_LB, RV_LH, RV_LW, RV_LBU, RV_LHU,
    RV_SB, RV_SH, RV_SW,
    RV_ADDI, RV_SLTI, RV_SLTIU, RV_XORI, RV_ORI, RV_ANDI, RV_SLLI, RV_SRLI, RV_SRAI,
    RV_ADD, RV_SUB, RV_SLL, RV_SLT, RV_SLTU, RV_XOR, RV_SRL, RV_SRA, RV_OR, RV_AND,
    RV_MUL, RV_MULH, RV_MULHSU, RV_MULHU, RV_DIV, RV_DIVU, RV_REM, RV_REMU,
    RV_LR, RV_SC,
    RV_AMOSWAP, RV_AMOADD, RV_AMOXOR, RV_AMOAND, RV_AMOOR, RV_AMOMIN, RV_AMOMAX, RV_AMOMINU, RV_AMOMAXU,
    RV_FENCE, RV_ECALL, RV_EBREAK, RV_CSRR, RV_CSR_OTHER,
    /* simtx custom ops */
    RV_BAR, RV_EXIT, RV_TX_BEGIN, RV_TX_COMMIT, RV_CLWB, RV_SFENCE, RV_NT_STORE, RV_LOG_STORE, RV_LOG_NAME_STORE,
    /* F (single precision) */
    RV_FLW, RV_FSW,
    RV_FADD, RV_FSUB, RV_FMUL, RV_FDIV, RV_FSQRT, RV_FMIN, RV_FMAX,
    RV_FMADD, RV_FMSUB, RV_FNMSUB, RV_FNMADD,
    RV_FSGNJ, RV_FSGNJN, RV_FSGNJX,
    RV_FCVT_W_S, RV_FCVT_WU_S, RV_FCVT_S_W, RV_FCVT_S_WU, RV_FMV_X_W, RV_FMV_W_X,
    RV_FEQ, RV_FLT, RV_FLE, RV_FCLASS,
    RV_FCSR_ACCESS, /* csrrw/csrrs/csrrc(i) of fflags, frm or fcsr */
    RV_OP_COUNT
} rv_op;

typedef enum rv_class {
    RV_CLASS_ALU, RV_CLASS_MUL, RV_CLASS_DIV, RV_CLASS_BRANCH, RV_CLASS_JUMP, RV_CLASS_LOAD, RV_CLASS_STORE,
    RV_CLASS_ATOMIC, RV_CLASS_CSR, RV_CLASS_BARRIER, RV_CLASS_EXIT, RV_CLASS_FENCE, RV_CLASS_TX, RV_CLASS_ILLEGAL,
    RV_CLASS_FLOAT /* F arithmetic, conversions, moves, comparisons and fcsr accesses (not flw/fsw) */
} rv_class;

typedef struct rv_insn {
    uint8_t op; /* rv_op */
    uint8_t rd, rs1, rs2; /* register indices (RV_FLOAT_REGISTER for f registers); 0 where unused */
    int32_t imm;
    uint32_t raw;
} rv_insn;

void rv_decode(uint32_t raw, rv_insn *insn);
rv_class rv_class_of(rv_op op);
const char *rv_op_name(rv_op op);
/* "addi a0, a0, 1"; branch and jump targets as absolute addresses. */
void rv_disassemble(const rv_insn *insn, uint32_t pc, char *out, size_t out_size);
const char *rv_register_name(unsigned reg);

/* Integer result of an ALU/MUL/DIV op with operands a (rs1) and b (rs2 or
 * imm). Inline: the SIMT core runs it per lane, in loops where a constant
 * op folds the switch away. */
static inline uint32_t rv_compute(rv_op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case RV_ADD: case RV_ADDI: return a + b;
    case RV_SUB: return a - b;
    case RV_SLL: case RV_SLLI: return a << (b & 31);
    case RV_SLT: case RV_SLTI: return (int32_t)a < (int32_t)b;
    case RV_SLTU: case RV_SLTIU: return a < b;
    case RV_XOR: case RV_XORI: return a ^ b;
    case RV_SRL: case RV_SRLI: return a >> (b & 31);
    case RV_SRA: case RV_SRAI: return (uint32_t)((int32_t)a >> (b & 31));
    case RV_OR: case RV_ORI: return a | b;
    case RV_AND: case RV_ANDI: return a & b;
    case RV_MUL: return a * b;
    case RV_MULH: return (uint32_t)(((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
    case RV_MULHSU: return (uint32_t)(((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32);
    case RV_MULHU: return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
    case RV_DIV:
        if (b == 0) return UINT32_MAX;
        if (a == 0x80000000u && b == UINT32_MAX) return a;
        return (uint32_t)((int32_t)a / (int32_t)b);
    case RV_DIVU: return b ? a / b : UINT32_MAX;
    case RV_REM:
        if (b == 0) return a;
        if (a == 0x80000000u && b == UINT32_MAX) return 0;
        return (uint32_t)((int32_t)a % (int32_t)b);
    case RV_REMU: return b ? a % b : a;
    default: return 0;
    }
}

/* Whether a conditional branch is taken (inline, like rv_compute). */
static inline bool rv_branch_taken(rv_op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case RV_BEQ: return a == b;
    case RV_BNE: return a != b;
    case RV_BLT: return (int32_t)a < (int32_t)b;
    case RV_BGE: return (int32_t)a >= (int32_t)b;
    case RV_BLTU: return a < b;
    case RV_BGEU: return a >= b;
    default: return false;
    }
}

/* Memory access size in bytes of a load/store/atomic (inline: once per
 * lane in the SIMT core's LD/ST unit). */
static inline unsigned rv_access_size(rv_op op)
{
    switch (op) {
    case RV_LB: case RV_LBU: case RV_SB: case RV_CLWB: return 1; /* clwb: any byte of its line */
    case RV_LH: case RV_LHU: case RV_SH: return 2;
    default: return 4;
    }
}

/* Sign- or zero-extends a loaded value. */
static inline uint32_t rv_extend_load(rv_op op, uint32_t value)
{
    switch (op) {
    case RV_LB: return (uint32_t)(int32_t)(int8_t)value;
    case RV_LBU: return value & 0xff;
    case RV_LH: return (uint32_t)(int32_t)(int16_t)value;
    case RV_LHU: return value & 0xffff;
    default: return value;
    }
}
/* The fused multiply-adds' third source register (bits 27-31), a float register. */
static inline unsigned rv_rs3(const rv_insn *insn) { return RV_FLOAT_REGISTER(insn->raw >> 27); }
static inline bool rv_is_fused(rv_op op) { return op >= RV_FMADD && op <= RV_FNMADD; }

/* New memory value of an AMO, from the old one and the operand. */
uint32_t rv_amo_apply(rv_op op, uint32_t old, uint32_t operand);

#ifdef __cplusplus
}
#endif
#endif
