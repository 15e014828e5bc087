#pragma once
// A small JSON reader (objects, arrays, numbers, strings, literals) for the shape suite, and an
// escaper for the writer. Enough for configuration files we own; not a general-purpose library.

#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace graphgemm::bench {

struct Json {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;  // keeps the file's order

  [[nodiscard]] const Json& at(const std::string& key) const {
    for (const auto& [k, v] : object)
      if (k == key) return v;
    throw std::runtime_error("JSON: missing key \"" + key + "\"");
  }
  [[nodiscard]] bool has(const std::string& key) const {
    for (const auto& [k, v] : object)
      if (k == key) return true;
    return false;
  }
  [[nodiscard]] long long as_int() const {
    if (kind != Kind::number) throw std::runtime_error("JSON: expected a number");
    return static_cast<long long>(number);
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  Json parse() {
    Json v = value();
    skip_ws();
    if (i_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON parse error at offset " + std::to_string(i_) + ": " + what);
  }
  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < s_.size() && s_[i_] == c) { ++i_; return true; }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  std::string str() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\') {
        if (i_ >= s_.size()) fail("bad escape");
        const char e = s_[i_++];
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'u': fail("\\u escapes are not supported");
          default: out += e;
        }
      } else {
        out += c;
      }
    }
    expect('"');
    return out;
  }
  Json value() {
    skip_ws();
    if (i_ >= s_.size()) fail("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      v.kind = Json::Kind::object;
      if (eat('}')) return v;
      do {
        skip_ws();
        std::string key = str();
        expect(':');
        v.object.emplace_back(std::move(key), value());
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++i_;
      v.kind = Json::Kind::array;
      if (eat(']')) return v;
      do v.array.push_back(value());
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Kind::string;
      v.string = str();
    } else if (s_.compare(i_, 4, "true") == 0) {
      i_ += 4; v.kind = Json::Kind::boolean; v.boolean = true;
    } else if (s_.compare(i_, 5, "false") == 0) {
      i_ += 5; v.kind = Json::Kind::boolean;
    } else if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
    } else {
      std::size_t used = 0;
      try { v.number = std::stod(s_.substr(i_, 64), &used); } catch (const std::exception&) { fail("bad value"); }
      i_ += used;
      v.kind = Json::Kind::number;
    }
    return v;
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

inline std::string json_escape(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; out += c; }
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

}  // namespace graphgemm::bench
