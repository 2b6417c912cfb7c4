# Valid TPS, one position per line: the canonical (compressed) form that to_tps writes,
# then other spellings of the same position, separated by " | ".
x3/x3/x3 1 1 | x,x,x/x,x,x/x,x,x 1 1 | x,x2/x2,x/x,x,x 1 1
x4/x4/x4/x4 2 1 | x,x,x,x/x,x,x,x/x,x,x,x/x,x,x,x 2 1 | x1,x3/x4/x2,x2/x,x,x2 2 1
x5/x5/x5/x5/x5 1 1 | x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x 1 1 | x5/x5/x5/x5/x5   1   1
x4,1/x5/x5/x5/2,x4 1 2 | x,x,x,x,1/x,x,x,x,x/x,x,x,x,x/x,x,x,x,x/2,x,x,x,x 1 2 | x2,x2,1/x5/x3,x2/x5/2,x,x3 1 2
x5/x5/x2,121212C,x2/1,x4/1,x4 2 7 | x,x,x,x,x/x,x,x,x,x/x,x,121212C,x,x/1,x,x,x,x/1,x,x,x,x 2 7
2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42 | 2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x,x,121211212/1,1,1212S,1S,2,1S/x,x,2,1,21,1 1 42
x7/1C,1112S,x,112211C,2S,2C,1S/x7/x3,222C,x3/x3,2S,x3/x3,1S,x3/x7 1 10 | x,x,x,x,x,x,x/1C,1112S,x,112211C,2S,2C,1S/x,x,x,x,x,x,x/x,x,x,222C,x,x,x/x,x,x,2S,x,x,x/x,x,x,1S,x,x,x/x,x,x,x,x,x,x 1 10
x,1S,1C,1S,x4/1,11,11111C,2S,2C,2S,2S,2S/x8/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14 | x,1S,1C,1S,x,x,x,x/1,11,11111C,2S,2C,2S,2S,2S/x,x,x,x,x,x,x,x/x8/x2,2C,x5/x2,1S,x5/x2,1S,x5/x2,1S,x5 1 14
