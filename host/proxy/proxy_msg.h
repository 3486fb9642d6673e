// The proxies' messages to each other. A PE's proxy executes, on its own heap, what a peer's proxy
// asks: every atomic (so it is atomic with respect to this PE's GPU threads: the same hardware
// atomics the softnic uses, which no libfabric provider without FI_HMEM offers on GPU memory), and
// puts and gets of staged data where the provider cannot reach the heap in place (GPU memory).
// One request per proxy is outstanding at a time; its reply carries the request's token.
#pragma once
#include <cstdint>

namespace gio {

enum proxy_msg_kind : uint32_t {
  PROXY_MSG_AMO_REQ = 1,  // gio_amo_op amo_op on `bytes` bytes at roff; reply: AMO_REP, value = old
  PROXY_MSG_AMO_REP,
  PROXY_MSG_PUT_REQ,      // len payload bytes follow, for roff; reply: PUT_ACK once they are in the heap
  PROXY_MSG_PUT_ACK,
  PROXY_MSG_GET_REQ,      // len bytes at roff; reply: GET_REP with them as payload
  PROXY_MSG_GET_REP,
  PROXY_MSG_PUT_INBOX,    // len bytes for roff wait in slot `value` of the target's inbox for this source
                          // (proxy_inbox.cpp); reply: PUT_ACK once they are in the heap
};

struct proxy_msg {
  uint32_t kind;     // proxy_msg_kind
  int32_t src;       // the sending PE
  uint64_t token;    // a request's number; its reply repeats it
  uint64_t roff;     // offset into the target's heap
  uint64_t len;      // PUT_REQ, GET_REQ, GET_REP: payload bytes
  uint64_t value;    // AMO_REQ operand, AMO_REP old value
  uint64_t compare;  // AMO_REQ compare value
  uint8_t amo_op;    // gio_amo_op
  uint8_t bytes;     // 4 or 8
  uint8_t pad[14];
};
static_assert(sizeof(proxy_msg) == 64, "proxy message header");

}  // namespace gio
