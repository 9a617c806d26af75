// The payload pool and the copy of a message onto a payload; the invariants
// are in payload_pool.hpp.
#include "payload_pool.hpp"

namespace simtx {

tlm::tlm_extension_base *msg_extension::clone() const
{
    return new msg_extension(*this);
}

void msg_extension::copy_from(const tlm::tlm_extension_base &other)
{
    *this = static_cast<const msg_extension &>(other);
}

payload_pool::~payload_pool()
{
    for (auto &payload : all_) payload->free_all_extensions();
}

void payload_pool::grow()
{
    all_.push_back(std::make_unique<pooled_payload>(this));
    pooled_payload *payload = all_.back().get();
    payload->message = new msg_extension;
    payload->message->payload = payload;
    payload->set_extension(payload->message);
    free_list_.push_back(payload->message);
}

void payload_pool::free(tlm::tlm_generic_payload *payload)
{
    // Keep the extension for the next use: only the pool's payloads carry it
    // (and name this pool as their memory manager).
    free_list_.push_back(static_cast<pooled_payload *>(payload)->message);
}

payload_pool shared_payload_pool;

void message_to_payload(const simtx_msg &msg, tlm::tlm_generic_payload &payload, msg_extension &extension)
{
    carry_message(msg, payload, extension);
    simtx_msg &m = extension.msg;
    unsigned length = m.size < SIMTX_MSG_MAX_DATA ? m.size : SIMTX_MSG_MAX_DATA;
    payload.set_command(m.op == SIMTX_OP_READ    ? tlm::TLM_READ_COMMAND
                        : m.op == SIMTX_OP_WRITE ? tlm::TLM_WRITE_COMMAND
                                                 : tlm::TLM_IGNORE_COMMAND);
    payload.set_address(m.address);
    payload.set_data_ptr(m.data);
    payload.set_data_length(length);
    payload.set_streaming_width(length);
    payload.set_dmi_allowed(false);
    if (m.byte_enable[0] == UINT64_MAX && m.byte_enable[1] == UINT64_MAX) {
        payload.set_byte_enable_ptr(nullptr);
        payload.set_byte_enable_length(0);
    } else {
        for (unsigned i = 0; i < length; i++)
            extension.byte_enable[i] = simtx_msg_byte_enabled(&m, i) ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
        payload.set_byte_enable_ptr(extension.byte_enable);
        payload.set_byte_enable_length(length);
    }
}

} // namespace simtx
