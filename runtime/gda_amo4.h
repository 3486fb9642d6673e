// How gda carries a 4-byte AMO (gio_amo_op) as one masked ConnectX atomic, for the device's posts
// (device/gda/gda_ops.h amo) and the host's (host/gda/gda_host_post.cpp gda_host_amo) alike.
// runtime/mlx5/wqe.h has the masked semantics:
//   fetch, add  masked fetch-add, field boundary 0 (a plain add; fetch adds 0)
//   xor v       masked fetch-add with every bit a field boundary: no carries, an XOR
//   cswap       masked compare-swap, both masks all ones (a plain compare-swap)
//   swap, set   masked compare-swap, compare mask 0 (always swaps), swap mask all ones
//   and v       masked compare-swap, compare mask 0, swap mask ~v, swap 0: clears the bits v lacks
//   or v        masked compare-swap, compare mask 0, swap mask v, swap all ones: sets v's bits
// 8-byte swap/set/and/or/xor stay compare-swap loops: an 8-byte masked compare-swap needs a
// 32-byte atomic segment, a WQE of two WQEBBs, which GIO's one-WQEBB slots and templates do not
// build (an 8-byte masked fetch-add, hence XOR, would fit one WQEBB, but has no template kind).
#pragma once
#include "runtime/defs.h"
#include "runtime/gda_queue.h"   // GIO_GDA_T_FA4, GIO_GDA_T_CS4
#include "runtime/host_entry.h"  // gio_amo_op

// The template kind and the four operand words (runtime/mlx5/wqe.h masked4_words) of a 4-byte AMO.
struct gio_gda_amo4 {
  int kind;               // GIO_GDA_T_FA4 or GIO_GDA_T_CS4
  uint32_t swap_add;      // swap value or addend
  uint32_t compare;       // compare-swap's compare; fetch-add's field boundary
  uint32_t swap_mask;     // compare-swap only
  uint32_t compare_mask;  // compare-swap only
};

GIO_HOST_DEVICE inline gio_gda_amo4 gio_gda_amo4_for(int op, uint32_t v, uint32_t c) {
  switch (op) {
    case GIO_AMO_FETCH: return {GIO_GDA_T_FA4, 0, 0, ~0u, ~0u};
    case GIO_AMO_FETCH_ADD: return {GIO_GDA_T_FA4, v, 0, ~0u, ~0u};
    case GIO_AMO_FETCH_XOR: return {GIO_GDA_T_FA4, v, ~0u, ~0u, ~0u};
    case GIO_AMO_CSWAP: return {GIO_GDA_T_CS4, v, c, ~0u, ~0u};
    case GIO_AMO_FETCH_AND: return {GIO_GDA_T_CS4, 0, 0, ~v, 0};
    case GIO_AMO_FETCH_OR: return {GIO_GDA_T_CS4, ~0u, 0, v, 0};
    default: return {GIO_GDA_T_CS4, v, 0, ~0u, 0};  // SET, SWAP
  }
}
