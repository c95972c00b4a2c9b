#pragma once
/// \file
/// Per-pass wall-clock timing as a tree (a pipeline's passes under their
/// anchor) reported like MLIR's `--mlir-timing`: the tree (the default
/// display) or the list of names with their times summed and sorted
/// (`--mlir-timing-display=list`). Knows no IR and no clock: callers add
/// measured seconds (`ScopedTimer` measures a scope).

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace kildall::pass {

/// How `Timing::report` lays the rows out.
enum class TimingDisplay {
  tree,  ///< Nested rows in execution order, children indented under their parent.
  list,  ///< One row per name, times of equal names summed, slowest first.
};

/// A tree of named wall-clock times.
class Timing {
 public:
  /// The root's id (the whole run).
  static constexpr std::size_t root = 0;

  Timing() { nodes_.push_back(Node{"root", 0.0, no_parent, {}}); }

  /// The child of `parent` named `name` (created on first use, in order of first use).
  [[nodiscard]] std::size_t child(std::size_t parent, const std::string& name) {
    for (const std::size_t c : nodes_[parent].children)
      if (nodes_[c].name == name) return c;
    nodes_.push_back(Node{name, 0.0, parent, {}});
    nodes_[parent].children.push_back(nodes_.size() - 1);
    return nodes_.size() - 1;
  }
  /// Adds `seconds` to node `id`.
  void add(std::size_t id, double seconds) { nodes_[id].seconds += seconds; }
  /// The seconds of node `id`.
  [[nodiscard]] double seconds(std::size_t id) const { return nodes_[id].seconds; }
  /// The name of node `id`.
  [[nodiscard]] const std::string& name(std::size_t id) const { return nodes_[id].name; }
  /// The children of node `id`, in order of first use.
  [[nodiscard]] const std::vector<std::size_t>& children(std::size_t id) const { return nodes_[id].children; }

  /// The report, with `total_seconds` as the run's wall time: MLIR's header,
  /// one `  seconds ( percent%)  name` row per node (tree or list), `Rest`
  /// (the total minus the top-level rows) and `Total`.
  [[nodiscard]] std::string report(double total_seconds, TimingDisplay display = TimingDisplay::tree) const {
    std::string out;
    out += "===" + std::string(73, '-') + "===\n";
    out += std::string(27, ' ') + "... Execution time report ...\n";
    out += "===" + std::string(73, '-') + "===\n";
    char line[96];
    std::snprintf(line, sizeof line, "  Total Execution Time: %.4f seconds\n\n", total_seconds);
    out += line;
    out += "  ----Wall Time----  ----Name----\n";
    const auto row = [&](double s, const std::string& label, std::size_t indent) {
      const double percent = total_seconds > 0 ? 100.0 * s / total_seconds : 0.0;
      std::snprintf(line, sizeof line, "  %8.4f (%5.1f%%)  ", s, percent);
      out += line + std::string(indent, ' ') + label + "\n";
    };
    double top = 0.0;
    for (const std::size_t c : nodes_[root].children) top += nodes_[c].seconds;
    if (display == TimingDisplay::tree) {
      tree_rows(root, 0, row);
    } else {
      std::vector<std::pair<std::string, double>> sums;
      for (std::size_t id = 1; id < nodes_.size(); ++id) {
        bool found = false;
        for (auto& [n, s] : sums)
          if (n == nodes_[id].name) {
            s += nodes_[id].seconds;
            found = true;
          }
        if (!found) sums.emplace_back(nodes_[id].name, nodes_[id].seconds);
      }
      for (std::size_t i = 1; i < sums.size(); ++i)  // stable insertion sort, slowest first
        for (std::size_t j = i; j > 0 && sums[j].second > sums[j - 1].second; --j) std::swap(sums[j], sums[j - 1]);
      for (const auto& [n, s] : sums) row(s, n, 0);
    }
    row(total_seconds > top ? total_seconds - top : 0.0, "Rest", 0);
    row(total_seconds, "Total", 0);
    return out;
  }

 private:
  static constexpr std::size_t no_parent = static_cast<std::size_t>(-1);
  struct Node {
    std::string name;
    double seconds;
    std::size_t parent;
    std::vector<std::size_t> children;
  };

  template <class Row>
  void tree_rows(std::size_t id, std::size_t depth, Row& row) const {
    for (const std::size_t c : nodes_[id].children) {
      row(nodes_[c].seconds, nodes_[c].name, 2 * depth);
      tree_rows(c, depth + 1, row);
    }
  }

  std::vector<Node> nodes_;
};

/// Seconds elapsed since `begin` on the steady clock.
[[nodiscard]] inline double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

/// Adds the wall time of its scope to one node of a `Timing` (nothing when the timing is null).
class ScopedTimer {
 public:
  /// Starts timing node `id` of `timing`.
  ScopedTimer(Timing* timing, std::size_t id) : timing_(timing), id_(id), begin_(std::chrono::steady_clock::now()) {}
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;
  ~ScopedTimer() {
    if (timing_) timing_->add(id_, seconds_since(begin_));
  }

 private:
  Timing* timing_;
  std::size_t id_;
  std::chrono::steady_clock::time_point begin_;
};

}  // namespace kildall::pass
