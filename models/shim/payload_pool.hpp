// The generic payloads that carry simtx messages between modules: the
// message extension, the pool that recycles payloads for the whole platform,
// and the copy of a message onto a payload.
//
// Invariants:
// - Every payload of the pool carries exactly one msg_extension, attached when
//   the payload is made and kept for its life; the extension names its payload
//   and a message in flight names its extension (msg.handle). A message is
//   identified by its extension, so a simtx block calling another directly
//   never reads the payload.
// - Reference counting: a payload that only simtx blocks calling each other
//   directly see is never acquired (acquired false, reference count 0); its
//   originator hands its extension back with return_message once its core has
//   consumed the response. A payload that reaches any other module (a checker,
//   a plain TLM target or initiator), which may keep it, is acquired exactly
//   once (acquired true) and comes back through release() and free() when its
//   last holder releases it. One use takes one way only, so an extension is on
//   the free list at most once and only while no one holds its payload.
// - The pool never frees a payload before the process ends: an extension
//   pointer stays valid for the whole run.
#ifndef SIMTX_PAYLOAD_POOL_HPP
#define SIMTX_PAYLOAD_POOL_HPP

#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "simtx_msg.h"

namespace simtx {

class block_module;

// The C message riding on a generic payload.
struct msg_extension : tlm::tlm_extension<msg_extension> {
    simtx_msg msg{};
    block_module *originator = nullptr; // releases the payload when its response is consumed
    tlm::tlm_generic_payload *payload = nullptr; // the payload carrying it (a message's handle is its extension)
    bool acquired = false; // the payload's reference count holds it (see payload_pool)
    unsigned char byte_enable[SIMTX_MSG_MAX_DATA];
    tlm::tlm_extension_base *clone() const override;
    void copy_from(const tlm::tlm_extension_base &other) override;
};

// Recycles payloads (each with its extension) for the whole platform. A
// payload that only simtx blocks called directly see is not counted: it
// returns through return_message, and its payload is never read (its
// reference count missed the host's caches at every response). One handed
// to a socket's module, which may keep it, is acquired then (block_module's
// fill_payload) and returns through release() and free().
class payload_pool : public tlm::tlm_mm_interface {
  public:
    ~payload_pool() override;
    // For a module of its own, which releases it.
    tlm::tlm_generic_payload *acquire()
    {
        msg_extension *message = acquire_message();
        message->payload->acquire();
        message->acquired = true;
        return message->payload;
    }
    // A payload's message extension, not acquired, known without the
    // payload's extension lookup (which missed the host's caches). Inline:
    // one per request.
    msg_extension *acquire_message()
    {
        if (free_list_.empty()) grow();
        msg_extension *message = free_list_.back();
        free_list_.pop_back();
        message->acquired = false;
        return message;
    }
    void return_message(msg_extension *message) { free_list_.push_back(message); }
    void free(tlm::tlm_generic_payload *payload) override;

  private:
    void grow(); // a new payload with its extension onto the free list
    struct pooled_payload : tlm::tlm_generic_payload {
        explicit pooled_payload(payload_pool *pool) : tlm_generic_payload(pool) {}
        msg_extension *message = nullptr; // also set as its extension
    };
    std::vector<msg_extension *> free_list_;
    std::vector<std::unique_ptr<pooled_payload>> all_;
};

// The pool of the process. A variable rather than a function's static, whose
// guard was tested at every request and response; no object built before
// main uses it.
extern payload_pool shared_payload_pool;

inline payload_pool &global_payload_pool()
{
    return shared_payload_pool;
}

inline tlm::tlm_response_status response_status_of(const simtx_msg &msg)
{
    if (!msg.is_response) return tlm::TLM_INCOMPLETE_RESPONSE;
    switch (msg.status) {
    case SIMTX_STATUS_OK: return tlm::TLM_OK_RESPONSE;
    case SIMTX_STATUS_ADDRESS_ERROR: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    default: return tlm::TLM_COMMAND_ERROR_RESPONSE;
    }
}

// Puts the message and its response status on the payload: all that a simtx
// block called directly reads (it ignores the generic attributes). Inline:
// a block's send uses it.
inline void carry_message(const simtx_msg &msg, tlm::tlm_generic_payload &payload, msg_extension &extension)
{
    if (&extension.msg != &msg) extension.msg = msg;
    extension.payload = &payload;
    extension.msg.handle = &extension;
    payload.set_response_status(response_status_of(extension.msg));
}

// Copies a message into a payload's generic fields and extension.
void message_to_payload(const simtx_msg &msg, tlm::tlm_generic_payload &payload, msg_extension &extension);

} // namespace simtx

#endif
