#include "rv32.h"

#include <stdio.h>

static const char *const op_names[RV_OP_COUNT] = {
    "illegal", "lui", "auipc", "jal", "jalr", "beq", "bne", "blt", "bge", "bltu", "bgeu",
    "lb", "lh", "lw", "lbu", "lhu", "sb", "sh", "sw",
    "addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai",
    "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
    "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu",
    "lr.w", "sc.w", "amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w", "amomin.w", "amomax.w", "amominu.w", "amomaxu.w",
    "fence", "ecall", "ebreak", "csrr", "csr-write",
    "gpu.bar", "gpu.exit", "gpu.tx_begin", "gpu.tx_commit", "gpu.clwb", "gpu.sfence", "gpu.nt_store", "gpu.log_store", "gpu.log_name_store",
    "flw", "fsw", "fadd.s", "fsub.s", "fmul.s", "fdiv.s", "fsqrt.s", "fmin.s", "fmax.s",
    "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s", "fsgnj.s", "fsgnjn.s", "fsgnjx.s",
    "fcvt.w.s", "fcvt.wu.s", "fcvt.s.w", "fcvt.s.wu", "fmv.x.w", "fmv.w.x", "feq.s", "flt.s", "fle.s", "fclass.s",
    "fcsr-access",
};

static const char *const register_names[RV_REGISTERS] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char *rv_op_name(rv_op op) { return op < RV_OP_COUNT ? op_names[op] : "?"; }
const char *rv_register_name(unsigned reg) { return register_names[reg % RV_REGISTERS]; }

static int32_t sign_extend(uint32_t value, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    value &= (bits == 32) ? UINT32_MAX : ((1u << bits) - 1);
    return (int32_t)((value ^ m) - m);
}

/* The OP-FP major opcode (0x53): arithmetic, conversions, moves and
 * comparisons; F registers become RV_FLOAT_REGISTER indices, operand
 * fields that are not registers become 0 (no scoreboard dependency). */
static void decode_op_fp(unsigned funct3, unsigned funct7, rv_insn *insn)
{
    unsigned rs2 = insn->rs2;
    bool rm_valid = funct3 != 5 && funct3 != 6;
    rv_op op = RV_ILLEGAL;
    bool rd_float = true, rs1_float = true, rs2_used = true;
    switch (funct7) {
    case 0x00: op = rm_valid ? RV_FADD : RV_ILLEGAL; break;
    case 0x04: op = rm_valid ? RV_FSUB : RV_ILLEGAL; break;
    case 0x08: op = rm_valid ? RV_FMUL : RV_ILLEGAL; break;
    case 0x0c: op = rm_valid ? RV_FDIV : RV_ILLEGAL; break;
    case 0x2c: op = rm_valid && rs2 == 0 ? RV_FSQRT : RV_ILLEGAL; rs2_used = false; break;
    case 0x10: op = funct3 == 0 ? RV_FSGNJ : funct3 == 1 ? RV_FSGNJN : funct3 == 2 ? RV_FSGNJX : RV_ILLEGAL; break;
    case 0x14: op = funct3 == 0 ? RV_FMIN : funct3 == 1 ? RV_FMAX : RV_ILLEGAL; break;
    case 0x50:
        op = funct3 == 2 ? RV_FEQ : funct3 == 1 ? RV_FLT : funct3 == 0 ? RV_FLE : RV_ILLEGAL;
        rd_float = false;
        break;
    case 0x60:
        op = !rm_valid ? RV_ILLEGAL : rs2 == 0 ? RV_FCVT_W_S : rs2 == 1 ? RV_FCVT_WU_S : RV_ILLEGAL;
        rd_float = rs2_used = false;
        break;
    case 0x68:
        op = !rm_valid ? RV_ILLEGAL : rs2 == 0 ? RV_FCVT_S_W : rs2 == 1 ? RV_FCVT_S_WU : RV_ILLEGAL;
        rs1_float = rs2_used = false;
        break;
    case 0x70:
        op = rs2 != 0 ? RV_ILLEGAL : funct3 == 0 ? RV_FMV_X_W : funct3 == 1 ? RV_FCLASS : RV_ILLEGAL;
        rd_float = rs2_used = false;
        break;
    case 0x78:
        op = rs2 == 0 && funct3 == 0 ? RV_FMV_W_X : RV_ILLEGAL;
        rs1_float = rs2_used = false;
        break;
    }
    if (op == RV_ILLEGAL) return;
    insn->op = (uint8_t)op;
    if (rd_float) insn->rd = (uint8_t)RV_FLOAT_REGISTER(insn->rd);
    if (rs1_float) insn->rs1 = (uint8_t)RV_FLOAT_REGISTER(insn->rs1);
    insn->rs2 = rs2_used ? (uint8_t)RV_FLOAT_REGISTER(rs2) : 0;
}

void rv_decode(uint32_t raw, rv_insn *insn)
{
    unsigned opcode = raw & 0x7f, funct3 = (raw >> 12) & 7, funct7 = raw >> 25;
    insn->raw = raw;
    insn->rd = (raw >> 7) & 31;
    insn->rs1 = (raw >> 15) & 31;
    insn->rs2 = (raw >> 20) & 31;
    insn->imm = 0;
    insn->op = RV_ILLEGAL;
    int32_t imm_i = sign_extend(raw >> 20, 12);
    int32_t imm_s = sign_extend(((raw >> 25) << 5) | ((raw >> 7) & 31), 12);
    int32_t imm_b = sign_extend(((raw >> 31) << 12) | (((raw >> 7) & 1) << 11) | (((raw >> 25) & 63) << 5) | (((raw >> 8) & 15) << 1), 13);
    int32_t imm_j = sign_extend(((raw >> 31) << 20) | (((raw >> 12) & 255) << 12) | (((raw >> 20) & 1) << 11) | (((raw >> 21) & 1023) << 1), 21);
    switch (opcode) {
    case 0x37: insn->op = RV_LUI; insn->imm = (int32_t)(raw & 0xfffff000u); break;
    case 0x17: insn->op = RV_AUIPC; insn->imm = (int32_t)(raw & 0xfffff000u); break;
    case 0x6f: insn->op = RV_JAL; insn->imm = imm_j; break;
    case 0x67: if (funct3 == 0) { insn->op = RV_JALR; insn->imm = imm_i; } break;
    case 0x63: {
        static const uint8_t ops[8] = {RV_BEQ, RV_BNE, RV_ILLEGAL, RV_ILLEGAL, RV_BLT, RV_BGE, RV_BLTU, RV_BGEU};
        insn->op = ops[funct3];
        insn->imm = imm_b;
        break;
    }
    case 0x03: {
        static const uint8_t ops[8] = {RV_LB, RV_LH, RV_LW, RV_ILLEGAL, RV_LBU, RV_LHU, RV_ILLEGAL, RV_ILLEGAL};
        insn->op = ops[funct3];
        insn->imm = imm_i;
        break;
    }
    case 0x23: {
        static const uint8_t ops[8] = {RV_SB, RV_SH, RV_SW, RV_ILLEGAL, RV_ILLEGAL, RV_ILLEGAL, RV_ILLEGAL, RV_ILLEGAL};
        insn->op = ops[funct3];
        insn->imm = imm_s;
        break;
    }
    case 0x13:
        insn->imm = imm_i;
        switch (funct3) {
        case 0: insn->op = RV_ADDI; break;
        case 2: insn->op = RV_SLTI; break;
        case 3: insn->op = RV_SLTIU; break;
        case 4: insn->op = RV_XORI; break;
        case 6: insn->op = RV_ORI; break;
        case 7: insn->op = RV_ANDI; break;
        case 1: if (funct7 == 0) { insn->op = RV_SLLI; insn->imm = insn->rs2; } break;
        case 5:
            if (funct7 == 0) { insn->op = RV_SRLI; insn->imm = insn->rs2; }
            else if (funct7 == 0x20) { insn->op = RV_SRAI; insn->imm = insn->rs2; }
            break;
        }
        break;
    case 0x33:
        if (funct7 == 0) {
            static const uint8_t ops[8] = {RV_ADD, RV_SLL, RV_SLT, RV_SLTU, RV_XOR, RV_SRL, RV_OR, RV_AND};
            insn->op = ops[funct3];
        } else if (funct7 == 0x20) {
            if (funct3 == 0) insn->op = RV_SUB;
            else if (funct3 == 5) insn->op = RV_SRA;
        } else if (funct7 == 1) {
            static const uint8_t ops[8] = {RV_MUL, RV_MULH, RV_MULHSU, RV_MULHU, RV_DIV, RV_DIVU, RV_REM, RV_REMU};
            insn->op = ops[funct3];
        }
        break;
    case 0x2f:
        if (funct3 == 2) {
            switch (funct7 >> 2) {
            case 0x02: if (insn->rs2 == 0) insn->op = RV_LR; break;
            case 0x03: insn->op = RV_SC; break;
            case 0x01: insn->op = RV_AMOSWAP; break;
            case 0x00: insn->op = RV_AMOADD; break;
            case 0x04: insn->op = RV_AMOXOR; break;
            case 0x0c: insn->op = RV_AMOAND; break;
            case 0x08: insn->op = RV_AMOOR; break;
            case 0x10: insn->op = RV_AMOMIN; break;
            case 0x14: insn->op = RV_AMOMAX; break;
            case 0x18: insn->op = RV_AMOMINU; break;
            case 0x1c: insn->op = RV_AMOMAXU; break;
            }
        }
        break;
    case 0x0f: if (funct3 == 0) insn->op = RV_FENCE; break;
    case 0x73:
        if (funct3 == 0 && raw == 0x00000073) insn->op = RV_ECALL;
        else if (funct3 == 0 && raw == 0x00100073) insn->op = RV_EBREAK;
        else if (funct3 != 0 && funct3 != 4 && (raw >> 20) >= RV_CSR_FFLAGS && (raw >> 20) <= RV_CSR_FCSR) {
            insn->op = RV_FCSR_ACCESS; /* the immediate forms' rs1 field is the value (rv_csr_operand) */
            insn->imm = (int32_t)(raw >> 20);
            if (funct3 >= 5) insn->rs1 = 0;
        }
        else if (funct3 == 2 && insn->rs1 == 0) { insn->op = RV_CSRR; insn->imm = (int32_t)(raw >> 20); }
        else if (funct3 != 0 && funct3 != 4) { insn->op = RV_CSR_OTHER; insn->imm = (int32_t)(raw >> 20); }
        break;
    case 0x0b:
        if (funct7 == 0) {
            static const uint8_t ops[8] = {RV_BAR, RV_EXIT, RV_TX_BEGIN, RV_TX_COMMIT, RV_CLWB, RV_SFENCE, RV_ILLEGAL, RV_ILLEGAL};
            insn->op = ops[funct3];
        }
        break;
    case 0x2b:
        if (funct3 == 2) { insn->op = RV_NT_STORE; insn->imm = imm_s; }
        else if (funct3 == 3) { insn->op = RV_LOG_STORE; insn->imm = imm_s; }
        else if (funct3 == 4) { insn->op = RV_LOG_NAME_STORE; insn->imm = imm_s; }
        break;
    case 0x07:
        if (funct3 == 2) { insn->op = RV_FLW; insn->imm = imm_i; insn->rd = (uint8_t)RV_FLOAT_REGISTER(insn->rd); insn->rs2 = 0; }
        break;
    case 0x27:
        if (funct3 == 2) { insn->op = RV_FSW; insn->imm = imm_s; insn->rs2 = (uint8_t)RV_FLOAT_REGISTER(insn->rs2); }
        break;
    case 0x43: case 0x47: case 0x4b: case 0x4f:
        if ((funct7 & 3) == 0 && funct3 != 5 && funct3 != 6) { /* fmt S; a valid rounding mode */
            static const uint8_t ops[4] = {RV_FMADD, RV_FMSUB, RV_FNMSUB, RV_FNMADD};
            insn->op = ops[(opcode >> 2) & 3];
            insn->rd = (uint8_t)RV_FLOAT_REGISTER(insn->rd);
            insn->rs1 = (uint8_t)RV_FLOAT_REGISTER(insn->rs1);
            insn->rs2 = (uint8_t)RV_FLOAT_REGISTER(insn->rs2);
        }
        break;
    case 0x53: decode_op_fp(funct3, funct7, insn); break;
    }
}

rv_class rv_class_of(rv_op op)
{
    switch (op) {
    case RV_LUI: case RV_AUIPC: case RV_ADDI: case RV_SLTI: case RV_SLTIU: case RV_XORI: case RV_ORI: case RV_ANDI:
    case RV_SLLI: case RV_SRLI: case RV_SRAI: case RV_ADD: case RV_SUB: case RV_SLL: case RV_SLT: case RV_SLTU:
    case RV_XOR: case RV_SRL: case RV_SRA: case RV_OR: case RV_AND:
        return RV_CLASS_ALU;
    case RV_MUL: case RV_MULH: case RV_MULHSU: case RV_MULHU: return RV_CLASS_MUL;
    case RV_DIV: case RV_DIVU: case RV_REM: case RV_REMU: return RV_CLASS_DIV;
    case RV_BEQ: case RV_BNE: case RV_BLT: case RV_BGE: case RV_BLTU: case RV_BGEU: return RV_CLASS_BRANCH;
    case RV_JAL: case RV_JALR: return RV_CLASS_JUMP;
    case RV_LB: case RV_LH: case RV_LW: case RV_LBU: case RV_LHU: return RV_CLASS_LOAD;
    /* clwb and the non-temporal store travel the store path (clwb without
     * data: an ldst.h CLEAN_LINE); the persist barrier is a fence. */
    case RV_SB: case RV_SH: case RV_SW: case RV_NT_STORE: case RV_LOG_STORE: case RV_LOG_NAME_STORE: case RV_CLWB: return RV_CLASS_STORE;
    case RV_AMOSWAP: case RV_AMOADD: case RV_AMOXOR: case RV_AMOAND: case RV_AMOOR: case RV_AMOMIN: case RV_AMOMAX:
    case RV_AMOMINU: case RV_AMOMAXU: case RV_LR: case RV_SC:
        return RV_CLASS_ATOMIC;
    case RV_CSRR: return RV_CLASS_CSR;
    case RV_BAR: return RV_CLASS_BARRIER;
    case RV_EXIT: return RV_CLASS_EXIT;
    case RV_FENCE: case RV_SFENCE: return RV_CLASS_FENCE;
    case RV_TX_BEGIN: case RV_TX_COMMIT: return RV_CLASS_TX;
    case RV_FLW: return RV_CLASS_LOAD;
    case RV_FSW: return RV_CLASS_STORE;
    default: return op > RV_FSW && op < RV_OP_COUNT ? RV_CLASS_FLOAT : RV_CLASS_ILLEGAL;
    }
}

void rv_disassemble(const rv_insn *insn, uint32_t pc, char *out, size_t out_size)
{
    const char *name = rv_op_name((rv_op)insn->op);
    const char *rd = rv_register_name(insn->rd), *rs1 = rv_register_name(insn->rs1), *rs2 = rv_register_name(insn->rs2);
    switch (rv_class_of((rv_op)insn->op)) {
    case RV_CLASS_ALU: case RV_CLASS_MUL: case RV_CLASS_DIV:
        if (insn->op == RV_LUI || insn->op == RV_AUIPC)
            snprintf(out, out_size, "%s %s, 0x%x", name, rd, (uint32_t)insn->imm >> 12);
        else if (((insn->raw & 0x7f) == 0x13))
            snprintf(out, out_size, "%s %s, %s, %d", name, rd, rs1, insn->imm);
        else
            snprintf(out, out_size, "%s %s, %s, %s", name, rd, rs1, rs2);
        break;
    case RV_CLASS_BRANCH:
        snprintf(out, out_size, "%s %s, %s, 0x%x", name, rs1, rs2, pc + (uint32_t)insn->imm);
        break;
    case RV_CLASS_JUMP:
        if (insn->op == RV_JAL) snprintf(out, out_size, "jal %s, 0x%x", rd, pc + (uint32_t)insn->imm);
        else if (insn->rd == 0 && insn->rs1 == 1 && insn->imm == 0) snprintf(out, out_size, "ret");
        else snprintf(out, out_size, "jalr %s, %d(%s)", rd, insn->imm, rs1);
        break;
    case RV_CLASS_LOAD: snprintf(out, out_size, "%s %s, %d(%s)", name, rd, insn->imm, rs1); break;
    case RV_CLASS_STORE:
        if (insn->op == RV_CLWB) snprintf(out, out_size, "%s (%s)", name, rs1);
        else snprintf(out, out_size, "%s %s, %d(%s)", name, rs2, insn->imm, rs1);
        break;
    case RV_CLASS_ATOMIC:
        if (insn->op == RV_LR) snprintf(out, out_size, "%s %s, (%s)", name, rd, rs1);
        else snprintf(out, out_size, "%s %s, %s, (%s)", name, rd, rs2, rs1);
        break;
    case RV_CLASS_CSR: snprintf(out, out_size, "csrr %s, 0x%x", rd, (unsigned)insn->imm); break;
    case RV_CLASS_FLOAT:
        if (insn->op == RV_FCSR_ACCESS) {
            static const char *const accesses[8] = {"", "csrrw", "csrrs", "csrrc", "", "csrrwi", "csrrsi", "csrrci"};
            static const char *const csrs[4] = {"", "fflags", "frm", "fcsr"};
            unsigned funct3 = (insn->raw >> 12) & 7;
            if (funct3 >= 5)
                snprintf(out, out_size, "%s %s, %s, %u", accesses[funct3], rd, csrs[insn->imm & 3], (insn->raw >> 15) & 31);
            else
                snprintf(out, out_size, "%s %s, %s, %s", accesses[funct3], rd, csrs[insn->imm & 3], rs1);
        }
        else if (rv_is_fused((rv_op)insn->op))
            snprintf(out, out_size, "%s %s, %s, %s, %s", name, rd, rs1, rs2, rv_register_name(rv_rs3(insn)));
        else if (insn->rs2 == 0)
            snprintf(out, out_size, "%s %s, %s", name, rd, rs1);
        else
            snprintf(out, out_size, "%s %s, %s, %s", name, rd, rs1, rs2);
        break;
    case RV_CLASS_TX:
        if (insn->op == RV_TX_COMMIT) snprintf(out, out_size, "%s %s", name, rd);
        else snprintf(out, out_size, "%s", name);
        break;
    case RV_CLASS_ILLEGAL:
        if (insn->op == RV_CSR_OTHER) snprintf(out, out_size, "csr-write 0x%x (0x%08x)", (unsigned)insn->imm, insn->raw);
        else snprintf(out, out_size, "illegal 0x%08x", insn->raw);
        break;
    default: snprintf(out, out_size, "%s", name); break;
    }
}

uint32_t rv_amo_apply(rv_op op, uint32_t old, uint32_t operand)
{
    switch (op) {
    case RV_AMOSWAP: return operand;
    case RV_AMOADD: return old + operand;
    case RV_AMOXOR: return old ^ operand;
    case RV_AMOAND: return old & operand;
    case RV_AMOOR: return old | operand;
    case RV_AMOMIN: return (int32_t)old < (int32_t)operand ? old : operand;
    case RV_AMOMAX: return (int32_t)old > (int32_t)operand ? old : operand;
    case RV_AMOMINU: return old < operand ? old : operand;
    case RV_AMOMAXU: return old > operand ? old : operand;
    default: return old;
    }
}
