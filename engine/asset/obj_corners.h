// The OBJ loader's vertices: one for every distinct (v, vt, vn) triple a face corner names,
// numbered in the order the file first names them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace facet::obj {

inline constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

// A face corner: 0-based indices into the v, vt and vn lists; kAbsent where not given.
struct Corner {
    std::uint32_t p = kAbsent, t = kAbsent, n = kAbsent;
    bool operator==(const Corner& o) const { return p == o.p && t == o.t && n == o.n; }
};

// Corners are found through their position: most positions carry one or a few triples and faces
// name nearby positions, so a lookup stays in cache. Hashing the whole triple scattered lookups
// over a table larger than the cache, which dominated the load of large files. A position named
// with more than kMaxChain triples moves them to a hash table, so no file makes lookups slow.
class CornerMap {
public:
    // The vertex of `c`, a new one (the next number) when `c` is new.
    std::uint32_t findOrInsert(const Corner& c) {
        if (c.p >= head_.size()) head_.resize(std::max<std::size_t>(c.p + 1, 2 * head_.size()), kAbsent);
        std::uint32_t& head = head_[c.p];
        if (head == kWide) return insertWide(c);
        std::size_t length = 0;
        for (std::uint32_t v = head; v != kAbsent; v = chain_[v], ++length)
            if (vertices_[v] == c) return v;
        if (length == kMaxChain) {
            for (std::uint32_t v = head; v != kAbsent; v = chain_[v]) wide_.findOrInsert(vertices_[v], v);
            head = kWide;
            return insertWide(c);
        }
        const auto next = static_cast<std::uint32_t>(vertices_.size());
        vertices_.push_back(c);
        chain_.push_back(head);
        head = next;
        return next;
    }

    // The triple of every vertex, by number.
    const std::vector<Corner>& vertices() const { return vertices_; }
    std::vector<Corner> takeVertices() { return std::move(vertices_); }

private:
    static constexpr std::size_t kMaxChain = 16;
    static constexpr std::uint32_t kWide = 0xFFFFFFFEu; // head_ of a position moved to wide_

    // Open addressing with linear probing (std::unordered_map's node per entry is far slower).
    class Hash {
    public:
        Hash() : slots_(64) {}
        std::uint32_t findOrInsert(const Corner& c, std::uint32_t next) {
            if (2 * (used_ + 1) > slots_.size()) grow();
            const std::size_t mask = slots_.size() - 1;
            for (std::size_t i = hash(c) & mask;; i = (i + 1) & mask) {
                Slot& s = slots_[i];
                if (s.vertex == kAbsent) {
                    s = {c, next};
                    ++used_;
                    return next;
                }
                if (s.key == c) return s.vertex;
            }
        }

    private:
        struct Slot {
            Corner key;
            std::uint32_t vertex = kAbsent;
        };
        static std::size_t hash(const Corner& c) {
            std::uint64_t h = c.p;
            h = h * 0x9E3779B97F4A7C15ull + c.t;
            h = h * 0x9E3779B97F4A7C15ull + c.n;
            h ^= h >> 32;
            h *= 0xD6E8FEB86659FD93ull;
            h ^= h >> 32;
            return static_cast<std::size_t>(h);
        }
        void grow() {
            std::vector<Slot> old(slots_.size() * 2);
            old.swap(slots_);
            used_ = 0;
            for (const Slot& s : old)
                if (s.vertex != kAbsent) findOrInsert(s.key, s.vertex);
        }
        std::vector<Slot> slots_;
        std::size_t used_ = 0;
    };

    std::uint32_t insertWide(const Corner& c) {
        const auto next = static_cast<std::uint32_t>(vertices_.size());
        const std::uint32_t v = wide_.findOrInsert(c, next);
        if (v == next) {
            vertices_.push_back(c);
            chain_.push_back(kAbsent);
        }
        return v;
    }

    std::vector<std::uint32_t> head_;  // per position: its newest vertex, kAbsent, or kWide
    std::vector<std::uint32_t> chain_; // per vertex: the position's vertex before it
    std::vector<Corner> vertices_;
    Hash wide_;
};

} // namespace facet::obj
