#!/usr/bin/env python3
"""Trains the learned judge: gradient-boosted trees (LightGBM, binary log-loss) over the features
scripts/train/dump-features.ts writes, an isotonic calibration of their score to relevance, and a
leave-one-repository-out report comparing the learned ranking with the hand-tuned one.

Usage: python3 scripts/train/train-judge.py --rows /tmp/codescout-train/rows/*.jsonl [--out src/retrieve/judge-model.ts]
Requires: pip install numpy lightgbm scikit-learn (training only; codescout itself evaluates the model in TypeScript).
"""
import argparse, glob, json, math, sys
from collections import defaultdict

import numpy as np
import lightgbm as lgb
from sklearn.isotonic import IsotonicRegression

PARAMS = dict(objective='binary', learning_rate=0.05, num_leaves=15, min_data_in_leaf=40, feature_fraction=0.9,
              bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0, verbose=-1, seed=7, num_threads=2)
ROUNDS = 250


def load(paths):
    """Rows of every file, grouped by repository: (features, label, task key, path)."""
    names, data = None, defaultdict(lambda: {'x': [], 'y': [], 'task': [], 'cycle': [], 'path': [], 'golds': {}})
    for p in paths:
        with open(p) as f:
            header = json.loads(f.readline())
            if names is None:
                names = header['features']
            elif names != header['features']:
                sys.exit(f'{p}: other features than the first file; dump all rows with one build')
            d = data[header['repo']]
            for line in f:
                r = json.loads(line)
                key = f"{header['dataset']}/{r['task']}"
                d['x'].append(r['x']); d['y'].append(r['gold']); d['task'].append(key); d['cycle'].append(r['cycle']); d['path'].append(r['path'])
                d['golds'][key] = r['golds']
    return names, data


def ranking_metrics(scores, d):
    """R@10 and MRR@10 of files ranked by their best score across cycles, per task (commit2files: share of gold)."""
    best = defaultdict(dict)
    gold = defaultdict(set)
    for s, t, p, y in zip(scores, d['task'], d['path'], d['y']):
        best[t][p] = max(best[t].get(p, -1e9), s)
        if y:
            gold[t].add(p)
    r10, mrr = [], []
    for t, files in best.items():
        ranked = sorted(files, key=lambda p: -files[p])[:10]
        n = d['golds'][t]
        found = [p for p in ranked if p in gold[t]]
        r10.append(len(found) / n if n > 1 else (1.0 if found else 0.0))
        first = next((i for i, p in enumerate(ranked) if p in gold[t]), None)
        mrr.append(0 if first is None else 1 / (first + 1))
    return float(np.mean(r10)), float(np.mean(mrr)), len(best)


def weights(repos, data):
    """Each repository weighs the same in training, however many rows it has."""
    return np.concatenate([np.full(len(data[r]['y']), 1000.0 / len(data[r]['y'])) for r in repos])


def groups(d):
    """Sizes of the runs of rows of one task and cycle (rows are written in that order)."""
    sizes, last = [], None
    for t, c in zip(d['task'], d['cycle']):
        if (t, c) != last:
            sizes.append(0); last = (t, c)
        sizes[-1] += 1
    return sizes


def fit(repos, data, objective):
    x = np.concatenate([np.array(data[r]['x'], dtype=float) for r in repos])
    y = np.concatenate([np.array(data[r]['y'], dtype=float) for r in repos])
    if objective == 'lambdarank':
        params = {**PARAMS, 'objective': 'lambdarank', 'lambdarank_truncation_level': 20, 'eval_at': [10]}
        ds = lgb.Dataset(x, y, group=[g for r in repos for g in groups(data[r])])
        return lgb.train(params, ds, ROUNDS)
    return lgb.train(PARAMS, lgb.Dataset(x, y, weight=weights(repos, data)), ROUNDS)


def export_trees(booster):
    trees = []
    for info in booster.dump_model()['tree_info']:
        nodes = []
        def walk(n):
            i = len(nodes)
            if 'leaf_value' in n:
                nodes.append([n['leaf_value']]); return i
            assert n['decision_type'] == '<=', n['decision_type']
            nodes.append(None)
            left = walk(n['left_child']); right = walk(n['right_child'])
            nodes[i] = [n['split_feature'], n['threshold'], left, right]
            return i
        walk(info['tree_structure'])
        trees.append(nodes)
    return trees


def blend_report(w, repos, data, h, oof_raw, oof_y):
    """Leave-one-repository-out R@10 / MRR@10 of the judge as shipped: w x calibrated score + (1 - w) x heuristic.
    Each held-out repository's scores are calibrated by an isotonic fit on the out-of-fold scores of the others."""
    print(f'blend (model weight {w}): {"held-out repository":32} {"heur R@10":>9} {"blend R@10":>10}  {"heur MRR":>8} {"blend MRR":>9}')
    rows, start = [], 0
    spans = {}
    for r in repos:
        spans[r] = (start, start + len(data[r]['y'])); start += len(data[r]['y'])
    raw, ys = np.array(oof_raw), np.array(oof_y, dtype=float)
    for held in repos:
        lo, hi = spans[held]
        others = np.r_[0:lo, hi:len(raw)]
        iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds='clip').fit(raw[others], ys[others])
        d = data[held]
        blended = w * iso.predict(raw[lo:hi]) + (1 - w) * np.array([x[h] for x in d['x']])
        hr, hm, _ = ranking_metrics([x[h] for x in d['x']], d)
        br, bm, _ = ranking_metrics(list(blended), d)
        rows.append((hr, br, hm, bm))
        print(f'{"":26}{held:32} {hr:9.3f} {br:10.3f}  {hm:8.3f} {bm:9.3f}')
    m = np.mean(rows, axis=0)
    print(f'{"":26}{"mean (leave-one-repository-out)":32} {m[0]:9.3f} {m[1]:10.3f}  {m[2]:8.3f} {m[3]:9.3f}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rows', nargs='+', required=True)
    ap.add_argument('--out')
    ap.add_argument('--version', default='judge-1')
    ap.add_argument('--objective', choices=['binary', 'lambdarank'], default='binary')
    ap.add_argument('--model-weight', type=float, default=0.5,
                    help="share of the model's calibrated score in the learned judge's relevance; the rest is the heuristic's (LEARNED_JUDGE_TUNING)")
    a = ap.parse_args()
    paths = sorted({p for pattern in a.rows for p in glob.glob(pattern)})
    names, data = load(paths)
    repos = sorted(data)
    h = names.index('heuristic')
    print(f'{len(repos)} repositories, {sum(len(data[r]["y"]) for r in repos)} rows, {len(names)} features')
    print(f'{"held-out repository":32} {"tasks":>5}  {"heur R@10":>9} {"learn R@10":>10}  {"heur MRR":>8} {"learn MRR":>9}')
    oof_raw, oof_y, rows = [], [], []
    for held in repos:
        booster = fit([r for r in repos if r != held], data, a.objective)
        d = data[held]
        raw = booster.predict(np.array(d['x'], dtype=float), raw_score=True)
        oof_raw.extend(raw); oof_y.extend(d['y'])
        hr, hm, n = ranking_metrics([x[h] for x in d['x']], d)
        lr, lm, _ = ranking_metrics(raw, d)
        rows.append((hr, lr, hm, lm))
        print(f'{held:32} {n:5d}  {hr:9.3f} {lr:10.3f}  {hm:8.3f} {lm:9.3f}')
    m = np.mean(rows, axis=0)
    print(f'{"mean (leave-one-repository-out)":32} {"":5}  {m[0]:9.3f} {m[1]:10.3f}  {m[2]:8.3f} {m[3]:9.3f}')
    # Calibration from out-of-fold scores: what the score means on repositories the trees never saw.
    iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds='clip').fit(np.array(oof_raw), np.array(oof_y, dtype=float))
    blend_report(a.model_weight, repos, data, h, oof_raw, oof_y)
    xs, ys = iso.X_thresholds_, iso.y_thresholds_
    keep = sorted(set(np.linspace(0, len(xs) - 1, min(64, len(xs))).astype(int)))
    knots = {'score': [round(float(xs[i]), 5) for i in keep], 'relevance': [round(float(ys[i]), 4) for i in keep]}
    print('calibration (score -> relevance):', list(zip(knots['score'][::8], knots['relevance'][::8])))
    if not a.out:
        return
    final = fit(repos, data, a.objective)
    model = {'version': a.version, 'features': names, 'trees': export_trees(final), 'bias': 0,
             'calibration': knots, 'trainedOn': ', '.join(repos)}
    body = json.dumps(model, separators=(',', ':'))
    with open(a.out, 'w') as f:
        f.write('// Written by scripts/train/train-judge.py; do not edit by hand. Retrain: see scripts/train/README.md.\n')
        f.write("import type { RankingModel } from './ranking-model.js';\n\n")
        f.write('/** The learned judge shipped with codescout. */\n')
        f.write(f'export const JUDGE_MODEL: RankingModel = {body};\n')
    print(f'wrote {a.out} ({len(body)} bytes, {len(model["trees"])} trees)')


if __name__ == '__main__':
    main()
