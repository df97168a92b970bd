#include "scheduler/metrics/text_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace ksched::scheduler::metrics {
namespace {

// Runs without a character to escape are written whole (a stream write per character made
// large expositions slow).
void WriteEscaped(std::ostream& out, std::string_view text, bool escape_quote) {
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char* escaped = c == '\\'                  ? "\\\\"
                          : c == '\n'                 ? "\\n"
                          : c == '"' && escape_quote ? "\\\""
                                                     : nullptr;
    if (escaped == nullptr) continue;
    out.write(text.data() + run, static_cast<std::streamsize>(i - run));
    out << escaped;
    run = i + 1;
  }
  out.write(text.data() + run, static_cast<std::streamsize>(text.size() - run));
}

std::string_view TypeName(prometheus::MetricType type) {
  switch (type) {
    case prometheus::MetricType::Counter:
      return "counter";
    case prometheus::MetricType::Gauge:
      return "gauge";
    case prometheus::MetricType::Histogram:
      return "histogram";
    case prometheus::MetricType::Summary:
      return "summary";
    default:
      return "untyped";
  }
}

// name+suffix{labels[,extra_name="extra_value"]} value
void WriteSample(std::ostream& out, const std::string& name, std::string_view suffix,
                 const prometheus::ClientMetric& metric, std::string_view extra_name,
                 double extra_value, double value) {
  out << name << suffix;
  if (!metric.label.empty() || !extra_name.empty()) {
    out << '{';
    bool first = true;
    for (const prometheus::ClientMetric::Label& label : metric.label) {
      if (!first) out << ',';
      first = false;
      out << label.name << "=\"";
      WriteEscaped(out, label.value, true);
      out << '"';
    }
    if (!extra_name.empty()) {
      if (!first) out << ',';
      out << extra_name << "=\"" << FormatGoFloat(extra_value) << '"';
    }
    out << '}';
  }
  out << ' ' << FormatGoFloat(value) << '\n';
}

}  // namespace

std::string FormatGoFloat(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == 0) return "0";
  char buffer[64];
  const std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  if (result.ec != std::errc()) std::abort();  // 64 bytes always hold a double
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  std::string out;
  if (text.front() == '-') {
    out += '-';
    text.remove_prefix(1);
  }
  // "d[.ddd]e±XX": the shortest round-trip digits and the decimal exponent.
  const std::size_t e = text.find('e');
  std::string digits(1, text[0]);
  if (e > 1) digits.append(text.substr(2, e - 2));
  const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  const int nd = static_cast<int>(digits.size());
  // Go's 'g' with the shortest precision: %e when the exponent is < -4 or >= 6.
  if (exponent < -4 || exponent >= 6) {
    out += digits[0];
    if (nd > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += exponent < 0 ? "e-" : "e+";
    const int magnitude = std::abs(exponent);
    if (magnitude < 10) out += '0';
    out += std::to_string(magnitude);
    return out;
  }
  const int dp = exponent + 1;  // digits before the decimal point
  if (dp > 0) {
    for (int i = 0; i < dp; ++i) out += i < nd ? digits[static_cast<std::size_t>(i)] : '0';
  } else {
    out += '0';
  }
  if (nd > dp) {
    out += '.';
    for (int i = dp; i < nd; ++i) out += i >= 0 ? digits[static_cast<std::size_t>(i)] : '0';
  }
  return out;
}

void WriteLabelValue(std::ostream& out, std::string_view value) { WriteEscaped(out, value, true); }

void WriteTextFormat(std::ostream& out, const std::vector<prometheus::MetricFamily>& families) {
  for (const prometheus::MetricFamily& family : families) {
    if (!family.help.empty()) {
      out << "# HELP " << family.name << ' ';
      WriteEscaped(out, family.help, false);
      out << '\n';
    }
    out << "# TYPE " << family.name << ' ' << TypeName(family.type) << '\n';
    for (const prometheus::ClientMetric& metric : family.metric) {
      switch (family.type) {
        case prometheus::MetricType::Counter:
          WriteSample(out, family.name, "", metric, {}, 0, metric.counter.value);
          break;
        case prometheus::MetricType::Gauge:
          WriteSample(out, family.name, "", metric, {}, 0, metric.gauge.value);
          break;
        case prometheus::MetricType::Histogram: {
          bool wrote_inf = false;
          for (const prometheus::ClientMetric::Bucket& bucket : metric.histogram.bucket) {
            WriteSample(out, family.name, "_bucket", metric, "le", bucket.upper_bound,
                        static_cast<double>(bucket.cumulative_count));
            wrote_inf = wrote_inf || std::isinf(bucket.upper_bound);
          }
          if (!wrote_inf) {
            WriteSample(out, family.name, "_bucket", metric, "le", HUGE_VAL,
                        static_cast<double>(metric.histogram.sample_count));
          }
          WriteSample(out, family.name, "_sum", metric, {}, 0, metric.histogram.sample_sum);
          WriteSample(out, family.name, "_count", metric, {}, 0,
                      static_cast<double>(metric.histogram.sample_count));
          break;
        }
        case prometheus::MetricType::Summary:
          for (const prometheus::ClientMetric::Quantile& quantile : metric.summary.quantile) {
            WriteSample(out, family.name, "", metric, "quantile", quantile.quantile, quantile.value);
          }
          WriteSample(out, family.name, "_sum", metric, {}, 0, metric.summary.sample_sum);
          WriteSample(out, family.name, "_count", metric, {}, 0,
                      static_cast<double>(metric.summary.sample_count));
          break;
        default:
          WriteSample(out, family.name, "", metric, {}, 0, metric.untyped.value);
          break;
      }
    }
  }
}

std::string GatheredText(std::vector<prometheus::MetricFamily> families) {
  std::erase_if(families, [](const prometheus::MetricFamily& family) { return family.metric.empty(); });
  std::sort(families.begin(), families.end(),
            [](const prometheus::MetricFamily& a, const prometheus::MetricFamily& b) { return a.name < b.name; });
  for (prometheus::MetricFamily& family : families) {
    std::sort(family.metric.begin(), family.metric.end(),
              [](const prometheus::ClientMetric& a, const prometheus::ClientMetric& b) {
                return std::lexicographical_compare(
                    a.label.begin(), a.label.end(), b.label.begin(), b.label.end(),
                    [](const prometheus::ClientMetric::Label& x, const prometheus::ClientMetric::Label& y) {
                      return x.name != y.name ? x.name < y.name : x.value < y.value;
                    });
              });
  }
  std::ostringstream out;
  WriteTextFormat(out, families);
  return out.str();
}

}  // namespace ksched::scheduler::metrics
