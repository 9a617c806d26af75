/* dram_device.c: RowClone copies and the data store (see dram_device.h).
 * Copies are rare: nothing here is on the cycle's path of a read or write. */
#include "dram_device.h"

#include <string.h>

static bool row_aligned(const dram_controller *c, uint64_t address)
{
    dram_location l = dram_address_decode(&c->map, address);
    return dram_address_in_range(&c->map, address) && l.column == 0 && l.byte == 0;
}

void dram_device_accept_copy(dram_controller *c, const simtx_msg *msg, uint64_t now)
{
    uint64_t source = msg->address, target = msg->aux;
    if (!dram_address_in_range(&c->map, source) || !dram_address_in_range(&c->map, target) ||
        (source & c->map.undecoded_mask) != (target & c->map.undecoded_mask)) {
        dram_controller_reject(c, msg, SIMTX_STATUS_ADDRESS_ERROR, now);
        return;
    }
    if (!row_aligned(c, source) || !row_aligned(c, target) || (msg->size != 0 && msg->size != c->map.geometry.row_bytes)) {
        dram_controller_reject(c, msg, SIMTX_STATUS_COMMAND_ERROR, now);
        return;
    }
    dram_location s = dram_address_decode(&c->map, source), t = dram_address_decode(&c->map, target);
    if (s.bank == t.bank && s.row == t.row) {
        c->stats.copies_trivial++;
        dram_controller_respond(c, msg, SIMTX_STATUS_OK, now + 1);
        return;
    }
    dram_copy *copy = &c->copies[c->copy_count++];
    uint8_t *buffer = copy->buffer;
    *copy = (dram_copy){.msg = *msg, .arrival = now, .sequence = c->sequence++, .buffer = buffer,
                        .source_bank = s.bank, .source_row = s.row, .target_bank = t.bank, .target_row = t.row,
                        .source_address = source, .target_address = target, .step = STEP_OPEN_SOURCE};
    if (c->copy_through_controller) copy->mode = COPY_CONTROLLER;
    else if (s.bank != t.bank) copy->mode = COPY_PSM;
    else if (dram_same_subarray(&c->map, source, target)) copy->mode = COPY_FPM;
    else copy->mode = COPY_CONTROLLER; /* same bank, other subarray: see README */
}

/* ---- data movement ---- */

static uint64_t burst_address(const dram_controller *c, uint64_t row_address, unsigned column)
{
    dram_location l = dram_address_decode(&c->map, row_address);
    l.column = column;
    l.byte = 0;
    return dram_address_compose(&c->map, &l, row_address);
}

static void move_burst(dram_controller *c, uint64_t from, uint64_t to)
{
    uint8_t burst[512];
    for (unsigned done = 0; done < c->burst_bytes; done += sizeof burst) {
        unsigned n = min2(sizeof burst, c->burst_bytes - done);
        sparse_memory_read(c->data, from + done, burst, n);
        sparse_memory_write(c->data, to + done, burst, n);
    }
}

/* ---- copies ---- */

/* The command that opens `row` in `bank`, or false when it is open. */
static bool open_command(const dram_controller *c, unsigned bank, unsigned row, dram_command *command)
{
    const dram_bank_timing *b = &c->state.banks[bank];
    if (b->open && b->row == row) return false;
    *command = (dram_command){.kind = b->open ? DRAM_CMD_PRE : DRAM_CMD_ACT, .bank = bank, .row = row};
    return true;
}

static void finish_copy_step(dram_controller *c, dram_copy *copy, uint64_t done)
{
    copy->done = done;
    copy->step = STEP_WAIT_DONE;
}

/* Works out the copy's next command (skipping steps already satisfied) and
 * issues it when its timing allows. */
void dram_device_advance_copy(dram_controller *c, dram_copy *copy, uint64_t now, uint64_t *wake)
{
    const dram_timing *t = &c->timing;
    for (;;) {
        dram_command command;
        switch (copy->step) {
        case STEP_OPEN_SOURCE:
            if (!open_command(c, copy->source_bank, copy->source_row, &command)) {
                copy->step = copy->mode == COPY_FPM ? STEP_COPY_ACTIVATE : copy->mode == COPY_PSM ? STEP_OPEN_TARGET : STEP_READS;
                continue;
            }
            break;
        case STEP_OPEN_TARGET:
            if (!open_command(c, copy->target_bank, copy->target_row, &command)) {
                copy->step = copy->mode == COPY_PSM ? STEP_TRANSFERS : STEP_WRITES;
                continue;
            }
            break;
        case STEP_COPY_ACTIVATE:
            command = (dram_command){.kind = DRAM_CMD_COPY_ACT, .bank = copy->source_bank, .row = copy->target_row};
            break;
        case STEP_TRANSFERS:
            command = (dram_command){.kind = DRAM_CMD_TRANSFER, .bank = copy->source_bank, .row = copy->source_row,
                                     .column = copy->bursts_done, .target_bank = copy->target_bank,
                                     .target_row = copy->target_row};
            break;
        case STEP_READS:
            command = (dram_command){.kind = DRAM_CMD_RD, .bank = copy->source_bank, .row = copy->source_row,
                                     .column = copy->bursts_done};
            break;
        case STEP_WRITES:
            if (now < copy->data_ready) { /* the whole row must have reached the controller */
                *wake = min2(*wake, copy->data_ready);
                return;
            }
            command = (dram_command){.kind = DRAM_CMD_WR, .bank = copy->target_bank, .row = copy->target_row,
                                     .column = copy->bursts_done};
            break;
        case STEP_CLOSE_SOURCE:
            command = (dram_command){.kind = DRAM_CMD_PRE, .bank = copy->source_bank};
            break;
        case STEP_CLOSE_TARGET:
            command = (dram_command){.kind = DRAM_CMD_PRE, .bank = copy->target_bank};
            break;
        default: *wake = min2(*wake, max2(copy->done, now + 1)); return;
        }
        if (!dram_controller_try_command(c, &command, now, wake)) return;
        if (!copy->issued_any) copy->first_command = now;
        copy->issued_any = true;
        switch (copy->step) {
        case STEP_COPY_ACTIVATE: /* the destination row now holds the source's data */
            for (unsigned i = 0; i < c->bursts_per_row; i++)
                move_burst(c, burst_address(c, copy->source_address, i), burst_address(c, copy->target_address, i));
            copy->step = STEP_CLOSE_SOURCE;
            break;
        case STEP_TRANSFERS:
            move_burst(c, burst_address(c, copy->source_address, copy->bursts_done),
                       burst_address(c, copy->target_address, copy->bursts_done));
            if (++copy->bursts_done == c->bursts_per_row) copy->step = STEP_CLOSE_SOURCE;
            break;
        case STEP_READS:
            sparse_memory_read(c->data, burst_address(c, copy->source_address, copy->bursts_done),
                               copy->buffer + copy->bursts_done * c->burst_bytes, c->burst_bytes);
            copy->data_ready = now + t->cl + t->burst;
            if (++copy->bursts_done == c->bursts_per_row) {
                copy->bursts_done = 0;
                copy->step = STEP_OPEN_TARGET;
            }
            break;
        case STEP_WRITES:
            sparse_memory_write(c->data, burst_address(c, copy->target_address, copy->bursts_done),
                                copy->buffer + copy->bursts_done * c->burst_bytes, c->burst_bytes);
            if (++copy->bursts_done == c->bursts_per_row) finish_copy_step(c, copy, now + t->wl + t->burst);
            break;
        case STEP_CLOSE_SOURCE:
            if (copy->mode == COPY_PSM) copy->step = STEP_CLOSE_TARGET;
            else finish_copy_step(c, copy, now + t->rp);
            break;
        case STEP_CLOSE_TARGET: finish_copy_step(c, copy, now + t->rp); break;
        default: break; /* opening steps re-check the bank next time */
        }
        return;
    }
}

void dram_device_start_copy(dram_controller *c, dram_copy *copy, uint64_t now)
{
    copy->started = true;
    c->copies_on_bank[copy->source_bank]++;
    if (copy->target_bank != copy->source_bank) c->copies_on_bank[copy->target_bank]++;
    dram_controller_show_bank(c, copy->source_bank, now);
    dram_controller_show_bank(c, copy->target_bank, now);
}

void dram_device_complete_copies(dram_controller *c, uint64_t now)
{
    for (unsigned i = 0; i < c->copy_count;) {
        dram_copy *copy = &c->copies[i];
        if (copy->step != STEP_WAIT_DONE || copy->done > now) {
            i++;
            continue;
        }
        dram_controller_respond(c, &copy->msg, SIMTX_STATUS_OK, copy->done);
        simtx_histogram_add(&c->stats.copy_latency, copy->done - copy->arrival);
        simtx_histogram_add(&c->stats.copy_service_latency, copy->done - copy->first_command);
        if (copy->mode == COPY_FPM) c->stats.copies_fpm++;
        else if (copy->mode == COPY_PSM) c->stats.copies_psm++;
        else c->stats.copies_controller++;
        c->last_copy_first_command = copy->first_command;
        c->last_copy_done = copy->done;
        c->copies_on_bank[copy->source_bank]--;
        if (copy->target_bank != copy->source_bank) c->copies_on_bank[copy->target_bank]--;
        unsigned source = copy->source_bank, target = copy->target_bank;
        uint8_t *buffer = copy->buffer;
        memmove(copy, copy + 1, (c->copy_count - i - 1) * sizeof *copy);
        c->copies[--c->copy_count].buffer = buffer; /* keep every slot's buffer */
        dram_controller_show_bank(c, source, now);
        dram_controller_show_bank(c, target, now);
        dram_controller_show_counts(c);
    }
}

size_t dram_device_debug_access(void *core, bool is_write, uint64_t address, uint8_t *data, size_t size,
                                int *forward_port)
{
    dram_controller *c = core;
    *forward_port = -1;
    if (!size || !dram_address_in_range(&c->map, address) || !dram_address_in_range(&c->map, address + size - 1)) return 0;
    if (is_write) sparse_memory_write(c->data, address, data, size);
    else sparse_memory_read(c->data, address, data, size);
    return size;
}
