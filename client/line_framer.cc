#include "client/line_framer.h"

#include <utility>

namespace ksched::client {

void LineFramer::Feed(std::string_view data, absl::FunctionRef<void(StreamItem)> emit) {
  while (!data.empty()) {
    const std::size_t newline = data.find('\n');
    const std::string_view piece = data.substr(0, newline);
    if (discarding_ > 0) {
      discarding_ += piece.size();
    } else if (partial_.size() + piece.size() > max_line_bytes_) {
      discarding_ = partial_.size() + piece.size();
      partial_.clear();
      partial_.shrink_to_fit();  // an oversized line's buffer is not kept for the next one
    } else {
      partial_.append(piece);
    }
    if (newline == std::string_view::npos) return;
    EmitLine(emit);
    data.remove_prefix(newline + 1);
  }
}

void LineFramer::Finish(absl::FunctionRef<void(StreamItem)> emit) { EmitLine(emit); }

void LineFramer::EmitLine(absl::FunctionRef<void(StreamItem)> emit) {
  if (discarding_ > 0) {
    emit(StreamItem{std::string(), discarding_});
    discarding_ = 0;
  } else if (!partial_.empty()) {
    emit(StreamItem{std::move(partial_), 0});
    partial_.clear();
  }
}

}  // namespace ksched::client
