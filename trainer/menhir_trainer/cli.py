"""The trainer's commands: train, export, reference (see trainer/README.md)."""

import argparse
import datetime
import math
import os
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import torch

from . import data, model, netfile

CHECKPOINT_FORMAT = "menhir-trainer checkpoint 1"


class UsageError(Exception):
    """A flag or checkpoint the command refuses; its message is the one line the user sees."""


def parse_args(argv):
    p = argparse.ArgumentParser(prog="train.py", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    t = sub.add_parser("train", help="fit a network to .mhd data and export it")
    t.add_argument("data", nargs="+", help=".mhd files")
    t.add_argument("--size", type=int, required=True, choices=sorted(data.PIECES))
    t.add_argument("--out", required=True, help="network file to write at the end (.mhn)")
    t.add_argument("--hidden", type=int, default=64, help="H, a multiple of 16 up to 512")
    t.add_argument("--depth", type=int, default=6, help="D, pieces under a top seen per square")
    t.add_argument("--buckets", type=int, default=4, help="output buckets, 1..8")
    t.add_argument("--scale", type=int, default=400, help="SCALE, centi-flats per output unit")
    t.add_argument("--residual", action="store_true",
                   help="the network corrects the engine's linear evaluation (added to it)")
    t.add_argument("--k", type=float, help="sigmoid scale K (default: weights/eval-NxN.txt)")
    t.add_argument("--lambda", dest="lam", type=float, default=0.5,
                   help="weight of the game result in the target")
    t.add_argument("--epochs", type=int, default=10, help="total epochs (counting resumed ones)")
    t.add_argument("--batch", type=int, default=16384)
    t.add_argument("--lr", type=float, default=0.001)
    t.add_argument("--lr-end", type=float, default=None,
                   help="learning rate of the last epoch (cosine decay from --lr; default --lr/20)")
    t.add_argument("--validation", type=float, default=0.05, help="held-out fraction")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--checkpoint", help="save weights and optimiser here after every epoch")
    t.add_argument("--resume", help="continue from this checkpoint (same --size)")
    t.add_argument("--augment", action="store_true",
                   help="a random board symmetry per batch")

    e = sub.add_parser("export", help="write a checkpoint's network file")
    e.add_argument("checkpoint")
    e.add_argument("--out", required=True)

    r = sub.add_parser("reference", help="positions and float evals for the engine's test")
    r.add_argument("checkpoint")
    r.add_argument("data", help="a .mhd file of the checkpoint's size")
    r.add_argument("--count", type=int, default=64)
    r.add_argument("--spread", action="store_true",
                   help="records evenly spaced over the file instead of the first ones")
    r.add_argument("--out-positions", required=True, help=".mhd file of the chosen records")
    r.add_argument("--out-expected", required=True, help="one float eval per record")
    return p.parse_args(argv)


def main(argv=None):
    """Runs one command; returns the exit status (1 with one line on stderr for bad input)."""
    command = shlex.join(sys.argv if argv is None else ["train.py", *argv])
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        {"train": train, "export": export, "reference": reference}[args.command](args, command)
    except (data.DataError, UsageError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def log(message):
    print(message, file=sys.stderr, flush=True)


def check_architecture(config):
    """Refuses a network the file format cannot hold, before any training time is spent."""
    if config["hidden"] % 16 or not 16 <= config["hidden"] <= 512:
        raise UsageError(f"--hidden {config['hidden']}: a multiple of 16, 16..512")
    if not 1 <= config["buckets"] <= 8:
        raise UsageError(f"--buckets {config['buckets']}: 1..8")
    if not 0 <= config["depth"] <= 255:
        raise UsageError(f"--depth {config['depth']}: 0..255")
    if not 1 <= config["scale"] <= 32767:
        raise UsageError(f"--scale {config['scale']}: 1..32767")


def check_training(args):
    if not 0 <= args.validation < 1:
        raise UsageError(f"--validation {args.validation}: from 0 to below 1")
    if args.k is not None and not args.k > 0:
        raise UsageError(f"--k {args.k}: positive")
    if args.epochs < 1 or args.batch < 1 or not args.lr > 0 or args.threads < 1:
        raise UsageError("--epochs, --batch, --threads must be at least 1 and --lr positive")


def build_network(config):
    return model.Network(data.input_count(config["size"], config["depth"]),
                         config["hidden"], config["buckets"])


def batch_loss(net, records, config, k, lam, symmetry=None):
    """Mean squared error of sigmoid(eval / K) against the target over one batch."""
    planes = data.decode(records)
    if symmetry is not None:
        planes = planes.permuted(symmetry)
    stm = records["stm"].astype(np.int64)
    x, bucket = model.batch_inputs(planes, stm, config["size"], config["depth"],
                                   config["buckets"])
    y = net(x, bucket)
    target = torch.from_numpy(data.targets(records, k, lam)).float()
    centi_flats = y * config["scale"] + linear_base(records, config)
    return torch.mean((torch.sigmoid(centi_flats / k) - target) ** 2)


def linear_base(records, config):
    """What the engine adds to the network's output: the linear evaluation for the residual
    kind, nothing otherwise."""
    if not config.get("residual", False):
        return torch.zeros(len(records))
    return torch.from_numpy(records["linear"].astype(np.float32))


@torch.no_grad()
def evaluate(net, dataset, index, config, k, lam, batch):
    if len(index) == 0:
        return float("nan")
    total = 0.0
    for i in range(0, len(index), batch):
        records = dataset.gather(index[i:i + batch])
        total += batch_loss(net, records, config, k, lam).item() * len(records)
    return total / len(index)


def save_checkpoint(path, state):
    """Through a temporary name: a run killed while saving keeps the previous checkpoint."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_checkpoint(path):
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # torch raises several kinds for a file that is no checkpoint
        raise UsageError(f"{path}: cannot read the checkpoint: {e}") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise UsageError(f"{path}: not a trainer checkpoint")
    return state


def train(args, command):
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    config = {"size": args.size, "hidden": args.hidden, "depth": args.depth,
              "buckets": args.buckets, "scale": args.scale, "residual": args.residual}
    resumed = load_checkpoint(args.resume) if args.resume else None
    if resumed:
        if resumed["config"]["size"] != args.size:
            raise UsageError(f"{args.resume}: size {resumed['config']['size']}, not {args.size}")
        config = {key: resumed["config"].get(key, config[key]) for key in config}
    check_architecture(config)
    check_training(args)
    k = args.k if args.k is not None else data.read_scale(args.size)
    dataset = data.Dataset(args.data, args.size)
    if len(dataset) == 0:
        raise data.DataError("no records in the data")
    komis = dataset.komis()

    split = np.random.default_rng(args.seed).permutation(len(dataset))
    held = int(round(len(dataset) * args.validation))
    valid_index, train_index = np.sort(split[:held]), split[held:]
    if len(train_index) == 0:
        raise UsageError("no records left to train on")
    net = build_network(config)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    start = 0
    if resumed:
        net.load_state_dict(resumed["model"])
        optimiser.load_state_dict(resumed["optimizer"])
        for group in optimiser.param_groups:
            group["lr"] = args.lr
        start = resumed["epoch"]
        command = resumed["command"] + " ; " + command
        if start >= args.epochs:
            raise UsageError(f"{args.resume} already has {start} epochs; raise --epochs")
    log(f"{len(dataset)} records ({len(train_index)} train, {len(valid_index)} validation) "
        f"from {len(dataset.paths)} file(s), komi {format_komis(komis)}; K {k:g}, "
        f"inputs {data.input_count(config['size'], config['depth'])}, threads {args.threads}")

    symmetries = data.symmetries(args.size)
    for epoch in range(start, args.epochs):
        # Cosine decay from --lr to --lr-end over the epochs: the late small steps settle the
        # weights that Adam at a constant rate keeps shaking (a function of the epoch alone, so
        # a resumed run follows the same schedule).
        lr_end = args.lr / 20 if args.lr_end is None else args.lr_end
        phase = epoch / max(args.epochs - 1, 1)
        for group in optimiser.param_groups:
            group["lr"] = lr_end + (args.lr - lr_end) * (1 + math.cos(math.pi * phase)) / 2
        rng = np.random.default_rng([args.seed, epoch])
        order = rng.permutation(train_index)
        began = time.perf_counter()
        total = 0.0
        for i in range(0, len(order), args.batch):
            records = dataset.gather(order[i:i + args.batch])
            symmetry = symmetries[rng.integers(8)] if args.augment else None
            loss = batch_loss(net, records, config, k, args.lam, symmetry)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            net.clip()
            total += loss.item() * len(records)
        seconds = time.perf_counter() - began
        losses = [total / max(len(order), 1),
                  evaluate(net, dataset, valid_index, config, k, args.lam, args.batch)]
        log(f"epoch {epoch + 1}/{args.epochs}: train loss {losses[0]:.6f}, validation loss "
            f"{losses[1]:.6f}, {len(order) / seconds:.0f} positions/s ({seconds:.1f} s)")
        state = {
            "format": CHECKPOINT_FORMAT, "config": config, "k": k, "lambda": args.lam,
            "model": net.state_dict(), "optimizer": optimiser.state_dict(), "epoch": epoch + 1,
            "data": [[p, c] for p, c in zip(dataset.paths, dataset.counts)], "komi": komis,
            "command": command, "loss": losses,
        }
        if args.checkpoint:
            save_checkpoint(args.checkpoint, state)
    quantised = build_network(config)
    quantised.load_state_dict(dequantised(state))
    state["quantised loss"] = evaluate(quantised, dataset, valid_index, config, k, args.lam,
                                       args.batch)
    log(f"validation loss with the quantised weights {state['quantised loss']:.6f}")
    write_network(state, args.out)
    log(f"wrote {args.out}")


def format_komis(komis):
    """Half flats to flats: 4 -> "2", 3 -> "1.5"."""
    return ", ".join(f"{h / 2:g}" for h in komis) or "none"


def write_network(state, out):
    config = state["config"]
    net = build_network(config)
    net.load_state_dict(state["model"])
    q = model.quantise(net.float_weights())
    inputs = data.input_count(config["size"], config["depth"])
    header = {
        "architecture": f"crelu, inputs {inputs}, hidden {config['hidden']} x2, "
                        f"depth {config['depth']}, buckets {config['buckets']}"
                        + (", residual (added to the linear evaluation)"
                           if config.get("residual", False) else ""),
        "quantisation": f"QA {model.QA}, QB {model.QB}, scale {config['scale']}",
        "komi": format_komis(state["komi"]),
        "data": ", ".join(f"{p} ({c} records)" for p, c in state["data"]),
        "command": state["command"],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "loss": f"train {state['loss'][0]:.6f}, validation {state['loss'][1]:.6f}"
                + (f", validation with the quantised weights {state['quantised loss']:.6f}"
                   if "quantised loss" in state else ""),
        "fit": f"size {config['size']}, K {state['k']:g}, lambda {state['lambda']:g}, "
               f"epochs {state['epoch']}",
    }
    netfile.write(out, q, config["size"], config["depth"], config["scale"], header,
                  config.get("residual", False))


def dequantised(state):
    """The state's weights rounded as the network file holds them, as a float state dict:
    the loss of the network the engine will run."""
    net = build_network(state["config"])
    net.load_state_dict(state["model"])
    q = model.quantise(net.float_weights())
    scales = {"w1": model.QA, "b1": model.QA, "out.weight": model.QB,
              "out.bias": model.QA * model.QB}
    names = {"w1": "w1", "b1": "b1", "out.weight": "w2", "out.bias": "b2"}
    return {key: torch.from_numpy(q[names[key]] / scales[key]).float() for key in scales}


def export(args, command):
    write_network(load_checkpoint(args.checkpoint), args.out)
    log(f"wrote {args.out}")


def reference(args, command):
    state = load_checkpoint(args.checkpoint)
    config = state["config"]
    size, depth, scale = config["size"], config["depth"], config["scale"]
    records = data.open_data(args.data, size)
    count = min(args.count, len(records))
    if args.count < 1:
        raise UsageError(f"--count {args.count}: at least 1")
    if count == 0:
        raise data.DataError(f"{args.data}: no records")
    chosen = (np.linspace(0, len(records) - 1, count).round().astype(np.int64) if args.spread
              else np.arange(count))
    records = np.array(records[chosen])
    net = build_network(config)
    net.load_state_dict(state["model"])
    weights = net.float_weights()
    planes = data.decode(records)
    stm = records["stm"].astype(np.int64)
    floats = model.float_eval(weights, planes, stm, size, depth, scale)
    integers = model.integer_eval(model.quantise(weights), planes, stm, size, depth, scale)
    error = float(np.abs(floats - integers).max())
    base = linear_base(records, config).double().numpy()
    floats, integers = floats + base, integers + base
    data.write_data(args.out_positions, size, records)
    with open(args.out_expected, "w") as f:
        f.write(f"# max_abs_error_integer_vs_float: {error:.4f}\n")
        f.writelines(f"{v:.6f}\n" for v in floats)
    print(f"{count} positions; float evals {floats.min():.1f}..{floats.max():.1f} centi-flats; "
          f"max |float - integer| {error:.4f} centi-flats (integer eval truncates toward zero)")
