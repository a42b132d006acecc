// The body of a state file (sloshlab/state_file.h): one archive that writes or reads.
//
// Each class that holds state lists its members once, in one exchangeState(ar)
// function that both saves and loads (the single-function style of
// boost::serialization), so that what is written and what is read cannot drift apart.
// Values are stored as their bytes (this machine's doubles, little-endian: the file's
// header says so); vectors as a count and their elements.
//
// Reading never trusts the bytes: a count larger than what is left, a bool that is not
// 0 or 1, or a per-particle channel whose length is not the particle count is a
// StateError naming what was wrong, never an allocation of garbage size or a crash.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace sloshlab {

class StateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class StateArchive {
 public:
  // An archive that appends to its bytes, and one that reads `bytes` (kept by the caller).
  static StateArchive writer() { return StateArchive(); }
  static StateArchive reader(std::string_view bytes) { return StateArchive(bytes); }

  bool loading() const { return m_loading; }
  const std::string& bytes() const { return m_out; }
  // Reading: every byte was used (a longer body is not this version's).
  void expectEnd() const {
    if (m_in.size() != m_pos) throw StateError(std::to_string(m_in.size() - m_pos) + " bytes left over at the end");
  }

  template <class T>
    requires std::is_trivially_copyable_v<T> && (!std::is_same_v<T, bool>) && (!std::is_enum_v<T>)
  void value(T& v, const char* what) {
    if (!m_loading) return append(&v, sizeof(T));
    take(&v, sizeof(T), what);
    if (!finite(v)) throw StateError(std::string(what) + " is not finite");
  }
  void value(bool& b, const char* what) {
    std::uint8_t byte = b ? 1 : 0;
    value(byte, what);
    if (byte > 1) throw StateError(std::string(what) + " is not a yes/no value");
    b = byte == 1;
  }
  // An enumeration stored as its index, in [0, count).
  template <class E>
    requires std::is_enum_v<E>
  void choice(E& e, int count, const char* what) {
    std::int32_t k = static_cast<std::int32_t>(e);
    value(k, what);
    if (k < 0 || k >= count) throw StateError(std::string(what) + " has no value " + std::to_string(k));
    e = static_cast<E>(k);
  }

  template <class T>
    requires std::is_trivially_copyable_v<T> && (!std::is_same_v<T, bool>)
  void vector(std::vector<T>& v, const char* what) {
    std::uint64_t count = v.size();
    value(count, what);
    if (!m_loading) return append(v.data(), v.size() * sizeof(T));
    if (count > (m_in.size() - m_pos) / sizeof(T))
      throw StateError(std::string(what) + ": " + std::to_string(count) + " values do not fit in the file");
    v.resize(count);
    take(v.data(), count * sizeof(T), what);
    for (const T& x : v)
      if (!finite(x)) throw StateError(std::string(what) + " holds a value that is not finite");
  }
  // A per-particle (or per-sample) array: its length is 0 (not yet computed) or n.
  template <class T>
  void channel(std::vector<T>& v, std::size_t n, const char* what) {
    vector(v, what);
    if (m_loading && !v.empty() && v.size() != n)
      throw StateError(std::string(what) + " holds " + std::to_string(v.size()) + " values for " +
                       std::to_string(n));
  }
  void string(std::string& s, const char* what) {
    std::vector<char> chars(s.begin(), s.end());
    vector(chars, what);
    s.assign(chars.begin(), chars.end());
  }

 private:
  StateArchive() = default;
  explicit StateArchive(std::string_view in) : m_loading(true), m_in(in) {}

  void append(const void* data, std::size_t n) {
    if (n > 0) m_out.append(static_cast<const char*>(data), n);
  }
  void take(void* data, std::size_t n, const char* what) {
    if (n > m_in.size() - m_pos) throw StateError(std::string("the file ends inside ") + what);
    if (n > 0) std::memcpy(data, m_in.data() + m_pos, n);
    m_pos += n;
  }

  // Whether every floating-point number in a value (a number, a glm vector, an array
  // of them) is finite: no state the engine writes holds NaN or infinity.
  template <class T>
  static bool finite(const T& v) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::isfinite(v);
    } else if constexpr (requires { T::length(); v[0]; }) {  // glm::vec
      for (int k = 0; k < T::length(); ++k)
        if (!finite(v[k])) return false;
      return true;
    } else if constexpr (requires { std::tuple_size<T>::value; }) {  // std::array
      for (const auto& e : v)
        if (!finite(e)) return false;
      return true;
    } else {
      return true;  // integers, and structs whose members are checked by their owner
    }
  }

  bool m_loading = false;
  std::string m_out;
  std::string_view m_in;
  std::size_t m_pos = 0;
};

}  // namespace sloshlab
