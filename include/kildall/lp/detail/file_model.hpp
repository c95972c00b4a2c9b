#pragma once
/// \file
/// Internal: the model as read from an LP or MPS file, by names, before it
/// becomes a kildall::lp::Model (the objective-constant column is folded back
/// into the objective constant at that point).

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <kildall/lp/model.hpp>
#include <kildall/lp/names.hpp>

namespace kildall::lp::detail {

/// A model under construction by a file reader.
struct FileModel {
  /// One row as read.
  struct FileRow {
    std::string name;                                ///< row name ("" if unlabeled)
    std::vector<std::pair<std::size_t, double>> terms;  ///< (column, coefficient)
    double lower = -inf;                             ///< lower bound
    double upper = inf;                              ///< upper bound
  };
  std::vector<VarInfo> vars;                              ///< columns in order of appearance
  std::unordered_map<std::string, std::size_t> var_index;  ///< column name -> index
  std::vector<FileRow> rows;                              ///< rows in file order
  Sense sense = Sense::minimize;                          ///< objective sense
  std::string objective_name;                             ///< objective row name
  std::vector<std::pair<std::size_t, double>> objective;  ///< objective terms
  double objective_constant = 0.0;                        ///< objective constant

  /// The index of column `name`, created (continuous, [0, inf)) if new.
  std::size_t column(const std::string& name) {
    auto [it, inserted] = var_index.try_emplace(name, vars.size());
    if (inserted) vars.push_back(VarInfo{0.0, inf, VarType::continuous, name});
    return it->second;
  }

  /// The Model. The column named objective_constant_name, when fixed at 1
  /// and used by no row, becomes the objective constant.
  [[nodiscard]] Model build() const {
    std::vector<bool> used(vars.size(), false);
    for (const FileRow& r : rows)
      for (const auto& [j, a] : r.terms)
        if (a != 0.0) used[j] = true;
    std::size_t constant_col = vars.size();
    if (auto it = var_index.find(std::string(objective_constant_name)); it != var_index.end()) {
      const VarInfo& v = vars[it->second];
      if (v.lower == 1.0 && v.upper == 1.0 && !used[it->second]) constant_col = it->second;
    }
    Model model;
    std::vector<Var> handle(vars.size());
    for (std::size_t j = 0; j < vars.size(); ++j) {
      if (j == constant_col) continue;
      handle[j] = model.add_var(vars[j].lower, vars[j].upper, vars[j].type, vars[j].name);
    }
    for (const FileRow& r : rows) {
      LinExpr e;
      e.reserve(r.terms.size());
      for (const auto& [j, a] : r.terms)
        if (j != constant_col) e.add_term(handle[j], a);
      (void)model.add(LinearConstraint(std::move(e), r.lower, r.upper), r.name);
    }
    LinExpr obj(objective_constant);
    for (const auto& [j, a] : objective) {
      if (j == constant_col) {
        obj.set_constant(obj.constant() + a);
      } else {
        obj.add_term(handle[j], a);
      }
    }
    model.add_objective(Objective{sense, std::move(obj), objective_name});
    return model;
  }
};

}  // namespace kildall::lp::detail
