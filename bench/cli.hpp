#pragma once
// Command-line helpers shared by the benchmarks.
#include <sstream>
#include <string>
#include <vector>

namespace graphgemm::bench {

// The comma-separated items of `s`, empty ones dropped: "a,,b" -> {"a", "b"}.
inline std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace graphgemm::bench
