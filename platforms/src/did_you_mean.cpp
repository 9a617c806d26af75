#include "did_you_mean.hpp"

#include <algorithm>
#include <vector>

namespace simtx {

static size_t edit_distance(const std::string &a, const std::string &b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) row[j] = j;
    for (size_t i = 1; i <= a.size(); i++) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); j++) {
            size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string did_you_mean(const std::string &name, const std::set<std::string> &known)
{
    const std::string *best = nullptr;
    size_t best_distance = std::max<size_t>(2, name.size() / 3) + 1;
    for (const std::string &candidate : known) {
        size_t distance = edit_distance(name, candidate);
        if (distance < best_distance) best = &candidate, best_distance = distance;
    }
    return best ? " (did you mean '" + *best + "'?)" : "";
}

} // namespace simtx
