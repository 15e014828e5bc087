#pragma once
// Status: the result of every graphgemm call that can fail. It carries a message written for the
// user: what is wrong and what to do about it.

#include <string>
#include <utility>

namespace graphgemm {

enum class StatusCode {
  ok = 0,
  invalid_argument,  // the caller passed something inconsistent; the message says what
  not_supported,     // valid, but this backend / configuration cannot do it; the message says what can
  cuda_error,        // a CUDA runtime call failed
  library_error,     // a CUDA library (cuBLASLt) call failed
  internal,          // a graphgemm bug: please report it with the message
};

[[nodiscard]] const char* to_string(StatusCode code) noexcept;

class [[nodiscard]] Status {
 public:
  Status() noexcept = default;  // success
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status success() noexcept { return {}; }

  [[nodiscard]] bool ok() const noexcept { return code_ == StatusCode::ok; }
  [[nodiscard]] StatusCode code() const noexcept { return code_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }
  // "invalid_argument: B must be 16-byte aligned ..." (or "ok").
  [[nodiscard]] std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::ok;
  std::string message_;
};

}  // namespace graphgemm
