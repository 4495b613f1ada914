//===- SharedMap.h - an ordered map whose copies share what neither wrote -*- C++ -*-===//
/// \file
/// The module facts of a file (ModuleInfo: one entry per function, 13,000 in
/// the largest file the server is measured on) are copied for every version
/// of a document, and a keystroke inside one function changes one entry or
/// none. A std::map copy allocates and copies every node, and freeing the
/// previous version's map frees them all again: a quarter of a keystroke.
///
/// SharedMap keeps its entries in key order in chunks of at most MaxChunk
/// entries, each entry in a node of its own. A copy shares the chunks (one
/// reference count per chunk); a write unshares the chunk it lands in, and
/// the node it changes, only (copy on write). So a copy costs the number of
/// chunks, and a write after it one chunk and one entry.
///
/// The interface is std::map's where that is cheap to keep. Reading is const
/// only: a non-const begin() would have to unshare every chunk, silently
/// turning each read of a copy into the full copy this type exists to avoid.
/// Writes are explicit: operator[], emplace, erase, mutate, forEachMutable.
/// References to values stay valid across insertions and erasures of other
/// keys (the nodes do not move) while the map is not shared; iterators are
/// invalidated by any write.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_SHAREDMAP_H
#define TESSEL_COMPILER_SUPPORT_SHAREDMAP_H

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace tessel {

template <typename K, typename V, typename Compare = std::less<>> class SharedMap {
public:
  using key_type = K;
  using mapped_type = V;
  using value_type = std::pair<const K, V>;
  /// Chunks split past this size; a chunk shared by a copy is copied whole
  /// on a write (MaxChunk node pointers), so it stays small.
  static constexpr size_t MaxChunk = 64;

private:
  using Node = std::shared_ptr<value_type>;
  struct Chunk {
    std::vector<Node> Items; ///< never empty, in key order
  };
  using Chunks = std::vector<std::shared_ptr<Chunk>>;

public:
  class const_iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = SharedMap::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type *;
    using reference = const value_type &;

    const_iterator() = default;
    reference operator*() const { return *(*Of)[C]->Items[I]; }
    pointer operator->() const { return (*Of)[C]->Items[I].get(); }
    const_iterator &operator++() {
      if (++I == (*Of)[C]->Items.size()) {
        ++C;
        I = 0;
      }
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator Old = *this;
      ++*this;
      return Old;
    }
    bool operator==(const const_iterator &O) const { return C == O.C && I == O.I; }
    bool operator!=(const const_iterator &O) const { return !(*this == O); }

  private:
    friend class SharedMap;
    const_iterator(const Chunks *Of, size_t C, size_t I) : Of(Of), C(C), I(I) {}
    const Chunks *Of = nullptr;
    size_t C = 0, I = 0;
  };
  using iterator = const_iterator;

  size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  const_iterator begin() const { return {&Parts, 0, 0}; }
  const_iterator end() const { return {&Parts, Parts.size(), 0}; }

  template <typename Q> const_iterator find(const Q &Key) const {
    auto [C, I, Found] = locate(Key);
    return Found ? const_iterator(&Parts, C, I) : end();
  }
  template <typename Q> size_t count(const Q &Key) const { return std::get<2>(locate(Key)) ? 1 : 0; }
  template <typename Q> bool contains(const Q &Key) const { return count(Key) != 0; }
  template <typename Q> const V &at(const Q &Key) const {
    auto It = find(Key);
    if (It == end())
      throw std::out_of_range("SharedMap::at");
    return It->second;
  }

  /// The value of Key, inserted value-initialised when absent (std::map's
  /// operator[]); the one entry it returns is this map's own.
  V &operator[](const K &Key) {
    auto [C, I, Found] = locate(Key);
    if (Found)
      return own(C, I);
    return insertAt(C, I, std::make_shared<value_type>(Key, V()));
  }

  /// Inserts (Key, Value) unless Key is present (std::map's emplace); true
  /// when it inserted.
  bool emplace(K Key, V Value) {
    auto [C, I, Found] = locate(Key);
    if (Found)
      return false;
    insertAt(C, I, std::make_shared<value_type>(std::move(Key), std::move(Value)));
    return true;
  }

  /// Key's value, this map's own, to change in place; null when absent.
  template <typename Q> V *mutate(const Q &Key) {
    auto [C, I, Found] = locate(Key);
    return Found ? &own(C, I) : nullptr;
  }

  template <typename Q> size_t erase(const Q &Key) {
    auto [C, I, Found] = locate(Key);
    if (!Found)
      return 0;
    Chunk &Ch = ownChunk(C);
    Ch.Items.erase(Ch.Items.begin() + static_cast<std::ptrdiff_t>(I));
    if (Ch.Items.empty())
      Parts.erase(Parts.begin() + static_cast<std::ptrdiff_t>(C));
    --Count;
    return 1;
  }

  /// Calls F(key, value) for every entry in key order, each value this map's
  /// own: a copy that calls it has copied everything.
  template <typename F> void forEachMutable(F &&Fn) {
    for (size_t C = 0; C < Parts.size(); ++C)
      for (size_t I = 0; I < Parts[C]->Items.size(); ++I) {
        V &Value = own(C, I);
        Fn(Parts[C]->Items[I]->first, Value);
      }
  }

  void clear() {
    Parts.clear();
    Count = 0;
  }

  friend bool operator==(const SharedMap &A, const SharedMap &B) {
    return A.size() == B.size() && std::equal(A.begin(), A.end(), B.begin());
  }
  friend bool operator!=(const SharedMap &A, const SharedMap &B) { return !(A == B); }

private:
  /// Where Key is (chunk, index, true), or where it would be inserted.
  template <typename Q> std::tuple<size_t, size_t, bool> locate(const Q &Key) const {
    // The first chunk whose last key is not below Key holds Key if any does.
    auto It = std::partition_point(Parts.begin(), Parts.end(), [&](const std::shared_ptr<Chunk> &Ch) {
      return Less(Ch->Items.back()->first, Key);
    });
    size_t C = static_cast<size_t>(It - Parts.begin());
    if (C == Parts.size())
      return {C, 0, false};
    const std::vector<Node> &Items = (*It)->Items;
    auto At = std::partition_point(Items.begin(), Items.end(), [&](const Node &N) { return Less(N->first, Key); });
    size_t I = static_cast<size_t>(At - Items.begin());
    return {C, I, !Less(Key, (*At)->first)};
  }

  Chunk &ownChunk(size_t C) {
    if (Parts[C].use_count() != 1)
      Parts[C] = std::make_shared<Chunk>(*Parts[C]);
    return *Parts[C];
  }

  V &own(size_t C, size_t I) {
    Node &N = ownChunk(C).Items[I];
    if (N.use_count() != 1)
      N = std::make_shared<value_type>(*N);
    return N->second;
  }

  V &insertAt(size_t C, size_t I, Node N) {
    V &Value = N->second;
    ++Count;
    if (Parts.empty()) {
      Parts.push_back(std::make_shared<Chunk>());
      Parts.back()->Items.push_back(std::move(N));
      return Value;
    }
    if (C == Parts.size()) { // past every key: the end of the last chunk
      C = Parts.size() - 1;
      I = Parts[C]->Items.size();
    }
    Chunk &Ch = ownChunk(C);
    Ch.Items.insert(Ch.Items.begin() + static_cast<std::ptrdiff_t>(I), std::move(N));
    if (Ch.Items.size() > MaxChunk) {
      auto Upper = std::make_shared<Chunk>();
      auto Half = Ch.Items.begin() + static_cast<std::ptrdiff_t>(Ch.Items.size() / 2);
      Upper->Items.assign(std::make_move_iterator(Half), std::make_move_iterator(Ch.Items.end()));
      Ch.Items.erase(Half, Ch.Items.end());
      Parts.insert(Parts.begin() + static_cast<std::ptrdiff_t>(C) + 1, std::move(Upper));
    }
    return Value;
  }

  Chunks Parts;
  size_t Count = 0;
  [[no_unique_address]] Compare Less;
};

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_SHAREDMAP_H
