#include "agpm_reason.h"

static bool above(uint64_t part, uint64_t whole, double ratio) { return whole && (double)part / (double)whole > ratio; }

agpm_reason agpm_classify(const agpm_vars *v, bool shared_memory, const agpm_rules *rules)
{
    if (v->log <= rules->few_logs) return AGPM_REASON_E;
    if (shared_memory) return AGPM_REASON_H;
    bool t_all = v->l1d_t_all != 0, s_all = v->l1d_s_all != 0, t_log = v->l1d_t_log != 0, s_log = v->l1d_s_log != 0;
    bool l1_none = !t_all && !s_all && !t_log && !s_log;
    if (t_all && s_all && !t_log && !s_log) return AGPM_REASON_A;
    if (t_all && s_all && t_log && s_log)
        return above(v->l1d_t_log, v->l1d_t_all, rules->ratio) || above(v->l1d_s_log, v->l1d_s_all, rules->ratio) ? AGPM_REASON_B
                                                                                                                  : AGPM_REASON_D;
    bool l2_all = v->l2_t_all && v->l2_s_all && v->l2_t_log && v->l2_s_log;
    bool l2_none = !v->l2_t_all && !v->l2_s_all && !v->l2_t_log && !v->l2_s_log;
    if (l1_none && l2_all) return AGPM_REASON_C;
    if (l1_none && l2_none) return AGPM_REASON_F;
    if (!t_all && s_all && !t_log && s_log) return AGPM_REASON_G;
    return AGPM_REASON_NONE;
}

agpm_path agpm_reason_path(agpm_reason reason)
{
    switch (reason) {
    case AGPM_REASON_A: case AGPM_REASON_C: case AGPM_REASON_D: case AGPM_REASON_G: return AGPM_PATH_TEMPORAL;
    default: return AGPM_PATH_NON_TEMPORAL;
    }
}

char agpm_reason_letter(agpm_reason reason)
{
    return reason >= AGPM_REASON_A && reason <= AGPM_REASON_H ? (char)('a' + (reason - AGPM_REASON_A)) : '-';
}

const char *agpm_reason_type(agpm_reason reason)
{
    switch (reason) {
    case AGPM_REASON_A: case AGPM_REASON_C: case AGPM_REASON_D: case AGPM_REASON_G: return "I";
    case AGPM_REASON_B: case AGPM_REASON_H: return "II";
    case AGPM_REASON_E: return "III";
    case AGPM_REASON_F: return "II, III";
    default: return "-";
    }
}
