#!/usr/bin/env python3
"""Unit tests of bench/scheduler_perf.py's pure parts: how repeated runs of one (workload, scheduler)
are combined into the reported figures, and what --verify says about them and about --compare's
tolerance. Synthetic results only; no control plane."""
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("scheduler_perf", os.path.join(REPO, "bench", "scheduler_perf.py"))
perf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(perf)


def run(throughput, cpu_ms, rss_mib, p50_ms, p99_ms, max_ms, cp_ms=10.0, errors=()):
    """A result shaped as run_one's: throughput samples around `throughput`."""
    samples = [throughput * 0.8, throughput, throughput * 1.2]
    return {"workload": "W", "scheduler": "ours", "measured_pods": 100, "errors": list(errors),
            "throughput": {"samples": 3, "average": throughput, "perc50": throughput, "perc90": throughput * 1.2,
                           "perc95": throughput * 1.2, "perc99": throughput * 1.2},
            "throughput_samples": samples, "progress": [[1.0, 0], [2.0, throughput]],
            "latency_ms": {"n": 100, "p50": p50_ms, "p90": p99_ms, "p99": p99_ms, "max": max_ms},
            "cpu_seconds": {"measured": cpu_ms / 10, "total": cpu_ms / 10 + 1},
            "cpu_ms_per_pod": cpu_ms, "control_plane_cpu_ms_per_pod": cp_ms,
            "control_plane_cpu_seconds": {"etcd": 1.0, "kube-apiserver": 5.0},
            "peak_rss_bytes": int(rss_mib * 2**20), "overcommitted_nodes": 0, "exit_status": 0,
            "measured": {"created": 100, "bound": 100, "seconds": 1.0, "create_rate": 100.0, "overall_rate": 90.0}}


class Rounds(unittest.TestCase):
    def test_each_round_runs_every_scheduler_before_the_next_round(self):
        calls = []
        reps = perf.run_rounds(["ours", "upstream", "null"], 3, lambda which, k: calls.append((which, k)) or {"k": k})
        self.assertEqual(calls, [("ours", 1), ("upstream", 1), ("null", 1), ("ours", 2), ("upstream", 2),
                                 ("null", 2), ("ours", 3), ("upstream", 3), ("null", 3)])
        self.assertEqual({w: [r["k"] for r in rs] for w, rs in reps.items()},
                         {"ours": [1, 2, 3], "upstream": [1, 2, 3], "null": [1, 2, 3]})

    @staticmethod
    def combined(which, figures, rounds=True):
        reps = []
        for k, (throughput, cpu_ms) in enumerate(figures, 1):
            r = run(throughput, cpu_ms, 50, 10, 20, 30)
            if rounds:
                r["round"] = k
            reps.append(r)
        return perf.combine_repetitions(reps, [f"W.{which}.run{k}.json" for k in range(1, len(reps) + 1)])

    def test_ratios_are_taken_round_by_round_then_their_median(self):
        # The host slows down from round to round: the medians of each scheduler's runs come from
        # different rounds, the ratio within each round stays near 2.
        ours = self.combined("ours", [(300, 0.5), (200, 0.8), (100, 1.6)])
        up = self.combined("upstream", [(150, 5.0), (95, 8.0), (52, 16.0)])
        null = self.combined("null", [(400, 0.2), (250, 0.3), (125, 0.6)])
        self.assertEqual(perf.round_by_round_goals(ours, up, null), [
            "throughput ours/upstream 2.00×, 2.11×, 1.92× (median 2.00×)",
            "CPU per pod upstream/ours 10.00×, 10.00×, 10.00× (median 10.00×)",
            "throughput ours/null 75%, 80%, 80% (median 80%)"])

    def test_no_round_by_round_ratios_without_rounds(self):
        one = run(100, 1.0, 50, 10, 20, 30)
        self.assertEqual(perf.round_by_round_goals(one, one, one), [])
        unmarked = self.combined("ours", [(300, 0.5), (200, 0.8), (100, 1.6)], rounds=False)
        self.assertEqual(perf.round_by_round_goals(unmarked, unmarked, unmarked), [])
        three = self.combined("ours", [(300, 0.5), (200, 0.8), (100, 1.6)])
        two = self.combined("upstream", [(150, 5.0), (95, 8.0)])
        self.assertEqual(perf.round_by_round_goals(three, two, None), [])


class CombineRepetitions(unittest.TestCase):
    def test_one_run_is_reported_as_it_is(self):
        r = run(100, 1.0, 50, 10, 20, 30)
        self.assertIs(perf.combine_repetitions([r], ["W.ours.json"]), r)

    def test_each_figure_is_its_own_median_and_samples_come_from_the_median_run(self):
        reps = [run(150, 3.0, 60, 12, 40, 45, cp_ms=9), run(100, 1.0, 70, 30, 50, 90, cp_ms=12),
                run(120, 2.0, 50, 20, 60, 61, cp_ms=11)]
        names = ["W.ours.run1.json", "W.ours.run2.json", "W.ours.run3.json"]
        c = perf.combine_repetitions(reps, names)
        self.assertEqual(c["throughput"]["average"], 120)          # run 3's
        self.assertEqual(c["throughput_samples"], reps[2]["throughput_samples"])
        self.assertEqual(c["samples_from"], "W.ours.run3.json")
        self.assertEqual(c["cpu_ms_per_pod"], 2.0)                  # median of 3, 1, 2
        self.assertEqual(c["peak_rss_bytes"], 60 * 2**20)           # median of 60, 70, 50 (run 1's)
        self.assertEqual(c["latency_ms"]["p50"], 20)                # median of 12, 30, 20
        self.assertEqual(c["latency_ms"]["p99"], 50)                # median of 40, 50, 60 (run 2's)
        self.assertEqual(c["latency_ms"]["max"], 90)                # the largest
        self.assertEqual(c["control_plane_cpu_ms_per_pod"], 11)
        self.assertEqual(c["median_of"], 3)
        self.assertEqual([x["file"] for x in c["repetitions"]], names)
        self.assertEqual([x["throughput_mean"] for x in c["repetitions"]], [150, 100, 120])
        self.assertEqual(reps[2]["cpu_ms_per_pod"], 2.0)            # the inputs are not modified
        self.assertNotIn("median_of", reps[2])

    def test_even_count_takes_the_lower_median(self):
        c = perf.combine_repetitions([run(100, 4.0, 50, 10, 20, 30), run(200, 1.0, 50, 10, 20, 30)], ["a", "b"])
        self.assertEqual(c["throughput"]["average"], 100)
        self.assertEqual(c["cpu_ms_per_pod"], 1.0)

    def test_errors_of_every_run_are_kept_with_their_file(self):
        c = perf.combine_repetitions([run(100, 1.0, 50, 10, 20, 30), run(110, 1.0, 50, 10, 20, 30, errors=["boom"]),
                                      run(120, 1.0, 50, 10, 20, 30)], ["a", "b", "c"])
        self.assertEqual(c["errors"], ["b: boom"])

    def test_a_run_without_throughput_does_not_become_the_median(self):
        failed = run(100, 1.0, 50, 10, 20, 30, errors=["no pods bound"])
        failed["throughput"] = {"samples": 0, "average": None}
        c = perf.combine_repetitions([failed, run(90, 1.0, 50, 10, 20, 30), run(130, 1.0, 50, 10, 20, 30)],
                                     ["a", "b", "c"])
        self.assertEqual(c["throughput"]["average"], 90)            # lower median of 90, 130
        self.assertEqual(c["samples_from"], "b")                    # the run whose mean that is
        self.assertEqual(c["errors"], ["a: no pods bound"])


class VerifyAndCompare(unittest.TestCase):
    @staticmethod
    def write(d, files, runs, repetitions=()):
        for name, r in files.items():
            with open(os.path.join(d, name), "w") as f:
                json.dump(r, f)
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump({"runs": list(runs), "repetitions": list(repetitions)}, f)
        with open(os.path.join(d, "results.md"), "w") as f:
            f.write("x")

    def test_verify_checks_every_repetition(self):
        reps = [run(100, 1.0, 50, 10, 20, 30), run(110, 1.0, 50, 10, 20, 30), run(120, 1.0, 50, 10, 20, 30)]
        reps[1]["measured"]["bound"] = 99                          # one repetition lost a pod
        names = [f"W.ours.run{k}.json" for k in (1, 2, 3)]
        combined = perf.combine_repetitions(reps, names)
        with tempfile.TemporaryDirectory() as d:
            self.write(d, dict(zip(names, reps), **{"W.ours.json": combined}), ["W.ours.json"], names)
            problems = perf.verify(d)
        self.assertTrue(any(p.startswith("W.ours.run2: bound/created") for p in problems), problems)
        reps[1]["measured"]["bound"] = 100
        combined = perf.combine_repetitions(reps, names)
        with tempfile.TemporaryDirectory() as d:
            self.write(d, dict(zip(names, reps), **{"W.ours.json": combined}), ["W.ours.json"], names)
            self.assertEqual(perf.verify(d), [])

    def test_verify_holds_topology_spreading_to_its_max_skew(self):
        workload = "TopologySpreading_5000Nodes_5000Pods"
        for skew, complaint in ((5, False), (6, True), (None, True)):
            r = dict(run(100, 1.0, 50, 10, 20, 30), workload=workload, zone_skew=skew)
            with tempfile.TemporaryDirectory() as d:
                self.write(d, {f"{workload}.ours.json": r}, [f"{workload}.ours.json"])
                problems = perf.verify(d)
            self.assertEqual(any("more than maxSkew 5" in p for p in problems), complaint, (skew, problems))
        # Runs of the harness before the check recorded no skew: nothing to hold them to.
        r = dict(run(100, 1.0, 50, 10, 20, 30), workload=workload)
        with tempfile.TemporaryDirectory() as d:
            self.write(d, {f"{workload}.ours.json": r}, [f"{workload}.ours.json"])
            self.assertEqual(perf.verify(d), [])

    def test_compare_reads_the_combined_files_only_and_marks_figures_beyond_the_tolerance(self):
        with tempfile.TemporaryDirectory() as base, tempfile.TemporaryDirectory() as rerun:
            self.write(base, {"W.ours.json": run(100, 1.0, 50, 10, 20, 30),
                              "W.ours.run1.json": run(1, 9.0, 9, 10, 20, 30)}, ["W.ours.json"])
            self.write(rerun, {"W.ours.json": run(109, 1.2, 50, 10, 20, 30)}, ["W.ours.json"])
            text = perf.compare_runs(base, rerun, 10.0)
        self.assertIn("100.0 / 109.0 (+9.0 %)", text)
        self.assertIn("**1.0 / 1.2 (+20.0 %)**", text)
        self.assertIn("3 of 4 figures within ±10 %", text)


class DecisionRate(unittest.TestCase):
    def test_median_per_size_with_every_runs_rate(self):
        def report(r5000, r15000):
            return {"benchmark": "decision_rate", "runs": [
                {"nodes": 5000, "pods_per_second": r5000, "seconds": 10000 / r5000},
                {"nodes": 15000, "pods_per_second": r15000, "seconds": 10000 / r15000}]}
        reports = [report(29000.0, 32000.0), report(48000.0, 25000.0), report(30000.0, 27000.0)]
        c = perf.combine_decision_rates(reports)
        self.assertEqual(c["median_of"], 3)
        self.assertEqual(c["runs"][0]["pods_per_second"], 30000.0)
        self.assertEqual(c["runs"][0]["seconds"], 10000 / 30000.0)      # that run's own entry
        self.assertEqual(c["runs"][0]["each_run_pods_per_second"], [29000.0, 48000.0, 30000.0])
        self.assertEqual(c["runs"][1]["pods_per_second"], 27000.0)
        self.assertNotIn("each_run_pods_per_second", reports[0]["runs"][0])


class Templates(unittest.TestCase):
    def test_the_churn_pod_names_a_priority_class_instead_of_setting_priority(self):
        # A real API server's Priority admission refuses a pod that sets spec.priority itself.
        pod = perf.pod_high_priority_large_cpu("churn-0", "churn", 0)
        self.assertNotIn("priority", pod["spec"])
        self.assertEqual(pod["spec"]["priorityClassName"], perf.HIGH_PRIORITY_CLASS["metadata"]["name"])
        self.assertEqual(perf.HIGH_PRIORITY_CLASS["value"], 10)
        self.assertEqual(pod["spec"]["containers"][0]["resources"]["requests"]["cpu"], "9")


class ContentType(unittest.TestCase):
    """--content-type reaches every scheduler: the config of ours and upstream, the null binder's flag."""

    def config(self, content_type):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "c.yaml")
            perf.write_config(path, "/k", "", content_type)
            with open(path) as f:
                return f.read()

    def test_the_config_names_the_content_type_under_clientConnection_only_when_given(self):
        self.assertNotIn("contentType", self.config(None))
        text = self.config("application/json")
        self.assertIn("clientConnection:\n  kubeconfig: /k\n  qps: 5000\n  burst: 5000\n"
                      "  contentType: application/json\nleaderElection:", text)

    def test_the_null_binder_gets_the_flag(self):
        env = {"KUBECONFIG_SCHEDULER": "/k", "KSCHED_CP_BIN": "/bin"}
        args = type("Args", (), {"build_dir": "/b", "v": 2, "content_type": None})()
        self.assertFalse(any(a.startswith("--kube-api-content-type") for a in perf.scheduler_command("null", args, env, "c")))
        args.content_type = "application/json"
        self.assertIn("--kube-api-content-type=application/json", perf.scheduler_command("null", args, env, "c"))
        self.assertIn("--config=c", perf.scheduler_command("ours", args, env, "c"))


class MachineSpeed(unittest.TestCase):
    def test_probe_steal_and_capacity(self):
        # 1000 jiffies over the phase: 250 idle + iowait, 100 stolen.
        speed = perf.machine_speed([4.0, 5.0, 3.0, 4.0], (10_000, 2_000, 500), (11_000, 2_250, 600))
        self.assertEqual(speed["probe_units"], 4)
        self.assertEqual(speed["probe_cpu_ms_mean"], 4.0)
        self.assertEqual(speed["probe_cpu_ms_p50"], 4.0)
        self.assertEqual(speed["steal_percent"], 10.0)
        self.assertEqual(speed["busy_percent"], 65.0)
        self.assertEqual(speed["capacity"], 225.0)                  # 1000 * 0.9 / 4.0

    def test_nothing_measured_gives_no_capacity(self):
        speed = perf.machine_speed([], None, None)
        self.assertEqual(speed, {"probe_units": 0})
        with tempfile.TemporaryDirectory() as d:
            r = run(100, 1.0, 50, 10, 20, 30)
            r["machine_speed"] = speed
            VerifyAndCompare.write(d, {"W.ours.json": r}, ["W.ours.json"])
            self.assertTrue(any("machine speed not measured" in p for p in perf.verify(d)))

    def test_the_probe_runs_and_stops_on_sigterm(self):
        probe = perf.SpeedProbe()
        deadline = time.monotonic() + 20
        while not probe.samples and time.monotonic() < deadline:
            time.sleep(0.05)
        samples = probe.stop()
        self.assertGreaterEqual(len(samples), 1)
        self.assertTrue(all(ms > 0 for ms in samples))
        self.assertEqual(probe.proc.returncode, 0)

    def test_compare_takes_the_machines_change_out(self):
        def timed(throughput, cpu_ms, cp_ms, probe_ms, steal):
            r = run(throughput, cpu_ms, 50, 10, 20, 30, cp_ms=cp_ms)
            r["machine_speed"] = {"probe_units": 10, "probe_cpu_ms_mean": probe_ms, "steal_percent": steal,
                                  "capacity": round(1000 * (1 - steal / 100) / probe_ms, 2)}
            return r
        with tempfile.TemporaryDirectory() as base, tempfile.TemporaryDirectory() as rerun:
            # The rerun's machine is 25 % faster (probe 5.0 -> 4.0 ms, no steal): throughput +25 % and
            # CPU per pod -20 % are the machine's; the API server's CPU per pod also grew 15 % beyond it.
            VerifyAndCompare.write(base, {"W.ours.json": timed(100, 1.0, 10.0, 5.0, 0.0)}, ["W.ours.json"])
            VerifyAndCompare.write(rerun, {"W.ours.json": timed(125, 0.8, 9.2, 4.0, 0.0)}, ["W.ours.json"])
            text = perf.compare_runs(base, rerun, 10.0)
        self.assertIn("**100.0 / 125.0 (+25.0 %)**", text)          # raw: outside
        self.assertIn("200.0 / 250.0 (+25.0 %)", text)              # capacity
        self.assertIn("| W | ours | 200.0 / 250.0 (+25.0 %) | +0.0 % | +0.0 % | **+15.0 %** |", text)
        self.assertIn("2 of 3 adjusted figures within ±10 %", text)
        self.assertIn("Outside: W.ours API server + etcd CPU ms/pod +15.0 %.", text)

    def test_compare_lists_the_goals_ratios_of_each_run(self):
        def sched(which, throughput, cpu_ms, rss_mib):
            r = run(throughput, cpu_ms, rss_mib, 10, 20, 30)
            r["scheduler"] = which
            return r
        with tempfile.TemporaryDirectory() as base, tempfile.TemporaryDirectory() as rerun:
            # Every scheduler 20 % slower in the rerun, except upstream's RSS, which grew 50 %.
            VerifyAndCompare.write(base, {"W.ours.json": sched("ours", 200, 1.0, 50),
                                                "W.upstream.json": sched("upstream", 100, 5.0, 200),
                                                "W.null.json": sched("null", 250, 0.4, 20)}, [])
            VerifyAndCompare.write(rerun, {"W.ours.json": sched("ours", 160, 1.25, 50),
                                                 "W.upstream.json": sched("upstream", 80, 6.25, 300),
                                                 "W.null.json": sched("null", 200, 0.5, 20)}, [])
            text = perf.compare_runs(base, rerun, 10.0)
        self.assertIn("| W | 2.00 / 2.00 (+0.0 %) | 0.80 / 0.80 (+0.0 %) | 5.00 / 5.00 (+0.0 %) | "
                      "**4.00 / 6.00 (+50.0 %)** |", text)
        self.assertIn("3 of 4 ratios within ±10 %", text)

    def test_compare_without_measurements_has_no_adjusted_table(self):
        with tempfile.TemporaryDirectory() as base, tempfile.TemporaryDirectory() as rerun:
            VerifyAndCompare.write(base, {"W.ours.json": run(100, 1.0, 50, 10, 20, 30)}, ["W.ours.json"])
            VerifyAndCompare.write(rerun, {"W.ours.json": run(100, 1.0, 50, 10, 20, 30)}, ["W.ours.json"])
            self.assertNotIn("adjusted", perf.compare_runs(base, rerun, 10.0))


class HeadlineTable(unittest.TestCase):
    README_START = re.compile(r"<!-- headline table of (docs/bench/[^ :]+): generated by "
                              r"`python3 bench/scheduler_perf\.py --headline \1` -->\n")
    README_END = "<!-- end of headline table -->"

    @staticmethod
    def write_run(d, workloads, schedulers, decision=True, short=False):
        files, runs = {}, []
        for workload in workloads:
            for k, which in enumerate(schedulers):
                r = dict(run(100.0 * (k + 1), 0.5 + k, 40 + k, 100 + k, 300, 400), workload=workload,
                         scheduler=which, nodes=5000, measured_pods=1000, median_of=5,
                         machine_speed={"capacity": 550.4 + k})
                files[f"{workload}.{which}.json"] = r
                runs.append(f"{workload}.{which}.json")
        VerifyAndCompare.write(d, files, runs)
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump({"runs": runs, "short": short, "scale": 1.0, "precreate": False, "create_rate": 0.0,
                       "decision_rate": "decision_rate.json" if decision else None}, f)

    def test_one_row_per_workload_with_the_combined_figures(self):
        with tempfile.TemporaryDirectory() as d:
            self.write_run(d, ["SchedulingPodAntiAffinity_5000Nodes_1000Pods", "Unschedulable_5000Nodes_10000Pods"],
                           ["ours", "upstream"])
            table = perf.headline_table(d)
        rows = table.splitlines()
        self.assertEqual(rows[0] + "\n" + rows[1] + "\n", perf.HEADLINE_HEADER)
        # WORKLOADS' order; the null binder's cells empty where it did not run.
        self.assertEqual(rows[2:], [
            "| PodAntiAffinity 5000 / 1000 (median of 5) | 100.0 / 200.0 / – | 0.5 / 1.5 | 40.0 / 41.0 | 100 / 101 "
            "| 10.0 / 10.0 / – | 550 / 551 / – |",
            "| Unschedulable churn 5000 / 1000, a 9-CPU pod every 200 ms (median of 5) | 100.0 / 200.0 / – "
            "| 0.5 / 1.5 | 40.0 / 41.0 | 100 / 101 | 10.0 / 10.0 / – | 550 / 551 / – |"])

    def test_only_a_whole_make_bench_is_a_full_run(self):
        everything = list(perf.WORKLOADS)
        with tempfile.TemporaryDirectory() as bench:
            for name, workloads, schedulers, extra in (
                    ("20261201T000000Z", everything, perf.SCHEDULERS, {}),
                    ("20261202T000000Z", everything, perf.SCHEDULERS, {}),
                    ("20261203T000000Z-check", everything[:2], ("ours", "upstream"), {}),   # a check
                    ("20261204T000000Z", everything, perf.SCHEDULERS, {"short": True}),     # smoke sizes
                    ("20261205T000000Z", everything, perf.SCHEDULERS, {"decision": False})):  # --no-decision-rate
                os.mkdir(os.path.join(bench, name))
                self.write_run(os.path.join(bench, name), workloads, schedulers, **extra)
            os.mkdir(os.path.join(bench, "history-notes"))  # no summary.json: not a run
            self.assertEqual(perf.latest_full_run(bench), "20261202T000000Z")

    def test_the_readme_shows_the_newest_full_runs_table(self):
        # "The README's headline numbers match the latest run" (issue #7), as a build fact: a full
        # `make bench` committed under docs/bench fails this test until the README shows its table.
        with open(os.path.join(REPO, "README.md")) as f:
            readme = f.read()
        starts = list(self.README_START.finditer(readme))
        self.assertEqual(len(starts), 1, "the README marks one headline table")
        run_dir = starts[0].group(1)
        end = readme.find(self.README_END, starts[0].end())
        self.assertGreater(end, 0, "the headline table's end marker")
        self.assertEqual(run_dir, "docs/bench/" + perf.latest_full_run(os.path.join(REPO, "docs", "bench")),
                         "the README's headline is the newest full run under docs/bench")
        self.assertEqual(readme[starts[0].end():end], perf.headline_table(os.path.join(REPO, run_dir)))


if __name__ == "__main__":
    sys.exit(unittest.main())
