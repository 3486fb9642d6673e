#include "host/heap/allocator.h"

#include <algorithm>
#include <cassert>
#include <iterator>

namespace gio {

namespace {

bool is_pow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

// Rounds x up to a multiple of the power of two a; false instead of wrapping,
// so absurd sizes fail identically on every PE rather than aliasing low offsets.
bool round_up(uint64_t x, uint64_t a, uint64_t* out) {
    if (x > UINT64_MAX - (a - 1)) return false;
    *out = (x + (a - 1)) & ~(a - 1);
    return true;
}

}  // namespace

heap_allocator::heap_allocator(uint64_t begin, uint64_t end, uint64_t min_align)
    : min_align_(min_align) {
    assert(is_pow2(min_align));
    if (begin < end) {
        free_.emplace(begin, end - begin);
        free_bytes_ = end - begin;
    }
}

void heap_allocator::insert_free(uint64_t offset, uint64_t size) {
    free_bytes_ += size;
    // Keeping free ranges maximal makes "first fit by lowest offset" a pure
    // function of which bytes are free, independent of the order of frees.
    auto next = free_.lower_bound(offset);
    if (next != free_.end() && offset + size == next->first) {
        size += next->second;
        next = free_.erase(next);
    }
    if (next != free_.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            prev->second += size;
            return;
        }
    }
    free_.emplace_hint(next, offset, size);
}

std::optional<uint64_t> heap_allocator::alloc(uint64_t size, uint64_t align, uint64_t bias) {
    if (size == 0 || !is_pow2(align) || bias >= align) return std::nullopt;
    if (align < min_align_) {  // min_align wins; the bias only matters modulo the final alignment
        align = min_align_;
        bias = 0;
    }
    uint64_t sz;
    if (!round_up(size, min_align_, &sz)) return std::nullopt;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        const uint64_t off = it->first, len = it->second;
        // The lowest a >= off with (a + bias) % align == 0.
        uint64_t a;
        if (off > UINT64_MAX - bias || !round_up(off + bias, align, &a))
            break;  // later ranges are higher still
        a -= bias;
        const uint64_t pad = a - off;
        if (pad > len || len - pad < sz) continue;  // compared without a + sz
        const uint64_t tail = len - pad - sz;
        free_.erase(it);
        free_bytes_ -= len;
        if (pad) insert_free(off, pad);
        if (tail) insert_free(a + sz, tail);
        used_.emplace(a, sz);
        used_bytes_ += sz;
        return a;
    }
    return std::nullopt;
}

bool heap_allocator::free(uint64_t offset) {
    auto it = used_.find(offset);
    if (it == used_.end()) return false;
    const uint64_t sz = it->second;
    used_.erase(it);
    used_bytes_ -= sz;
    insert_free(offset, sz);
    return true;
}

std::optional<uint64_t> heap_allocator::realloc(uint64_t offset, uint64_t new_size,
                                                bool* moved) {
    if (moved) *moved = false;
    auto it = used_.find(offset);
    uint64_t nsz;
    if (it == used_.end() || new_size == 0 || !round_up(new_size, min_align_, &nsz))
        return std::nullopt;
    const uint64_t old = it->second;
    if (nsz <= old) {
        if (nsz < old) {
            it->second = nsz;
            used_bytes_ -= old - nsz;
            insert_free(offset + nsz, old - nsz);
        }
        return offset;
    }
    const uint64_t need = nsz - old;
    auto next = free_.find(offset + old);
    if (next != free_.end() && next->second >= need) {
        const uint64_t rest = next->second - need;
        free_.erase(next);
        free_bytes_ -= need + rest;
        if (rest) insert_free(offset + nsz, rest);
        it->second = nsz;
        used_bytes_ += need;
        return offset;
    }
    // The old block stays live so the caller can copy out of it; the new block
    // can therefore never overlap it.
    auto fresh = alloc(new_size, min_align_);
    if (fresh && moved) *moved = true;
    return fresh;
}

bool heap_allocator::is_block(uint64_t offset) const { return used_.count(offset) != 0; }

uint64_t heap_allocator::block_size(uint64_t offset) const {
    auto it = used_.find(offset);
    return it == used_.end() ? 0 : it->second;
}

uint64_t heap_allocator::largest_free() const {
    uint64_t best = 0;
    for (const auto& r : free_) best = std::max(best, r.second);
    return best;
}

}  // namespace gio
