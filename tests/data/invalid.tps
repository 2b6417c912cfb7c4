# Malformed TPS, one per line: class | TPS | a fragment the error message must contain.
# tests/notation.rs runs one test per class and checks every class here has a test.
fields | x5/x5/x5/x5/x5 1 | needs 3 fields
fields | x5/x5/x5/x5/x5 | found 1
fields |  | found 0
fields | x5/x5/x5/x5/x5 1 1 1 | found 4
rows | x2/x2 1 1 | 2 rows; sizes 3 to 8
rows | x/x 1 1 | 2 rows; sizes 3 to 8
rows | x9/x9/x9/x9/x9/x9/x9/x9/x9 1 1 | 9 rows; sizes 3 to 8
rows | x5/x5/x5/x5 1 1 | row 1 has 5 squares, but the board has 4 rows
rows | x5/x5/x5/x5/x5/x5 1 1 | row 1 has 5 squares, but the board has 6 rows
columns | x5/x5/x4/x5/x5 1 1 | row 3 has 4 squares, but the board has 5 rows
columns | x5/x5/x5/x5/x6 1 1 | row 5 has 6 squares, but the board has 5 rows
columns | x5/x5/x5,1/x5/x5 1 1 | row 3 has more than 5 squares
columns | x,x,x,x,x,x/x5/x5/x5/x5 1 1 | row 1 has 6 squares, but the board has 5 rows
columns | 1,2,1,2,1,2/x5/x5/x5/x5 1 1 | row 1 has more than 5 squares
columns | x5/x5/x5/x5/1,2 1 1 | row 5 has 2 squares, but the board has 5 rows
characters | x4,3/x5/x5/x5/x5 1 1 | unexpected character '3'
characters | x4,1s/x5/x5/x5/x5 1 1 | unexpected character 's'
characters | x4,y/x5/x5/x5/x5 1 1 | unexpected character 'y'
characters | X5/x5/x5/x5/x5 1 1 | unexpected character 'X'
characters | x4,1F/x5/x5/x5/x5 1 1 | unexpected character 'F'
characters | x4,12é/x5/x5/x5/x5 1 1 | unexpected character 'é'
characters | x4;1/x5/x5/x5/x5 1 1 | 'x4;1' is not a run of empty squares
characters | xx,x4/x5/x5/x5/x5 1 1 | 'xx' is not a run of empty squares
empty_cell | x4,,1/x5/x5/x5/x5 1 1 | row 1 has an empty square entry
empty_cell | x4,1,/x5/x5/x5/x5 1 1 | row 1 has an empty square entry
empty_cell | ,x5/x5/x5/x5/x5 1 1 | row 1 has an empty square entry
empty_cell | x5/x5//x5/x5 1 1 | row 3 has an empty square entry
runs | x0,x5/x5/x5/x5/x5 1 1 | 'x0' is not a run of empty squares
runs | x9/x5/x5/x5/x5 1 1 | 'x9' is not a run of empty squares
runs | x05/x5/x5/x5/x5 1 1 | 'x05' is not a run of empty squares
runs | x-1,x5/x5/x5/x5/x5 1 1 | 'x-1' is not a run of empty squares
runs | x10/x5/x5/x5/x5 1 1 | 'x10' is not a run of empty squares
below_top | 1S1,x4/x5/x5/x5/x5 1 3 | a wall or capstone can only be on top
below_top | 1C2,x4/x5/x5/x5/x5 1 3 | a wall or capstone can only be on top
below_top | 12SC,x4/x5/x5/x5/x5 1 3 | a wall or capstone can only be on top
below_top | x4,SS/x5/x5/x5/x5 1 3 | a wall or capstone can only be on top
empty_stack | S,x4/x5/x5/x5/x5 1 3 | stack 'S' has no pieces
empty_stack | x4,C/x5/x5/x5/x5 1 3 | stack 'C' has no pieces
reserves | 11111111111,x2/x3/x3 2 10 | player 1 has 11 stone(s) on the board, more than the 10 of a 3x3 game
reserves | 2222222222,2,x/x3/x3 1 10 | player 2 has 11 stone(s) on the board, more than the 10 of a 3x3 game
reserves | 1111111111111111,x3/x4/x4/x4 2 20 | player 1 has 16 stone(s) on the board, more than the 15 of a 4x4 game
reserves | 2222222222222222222222,x4/x5/x5/x5/x5 1 20 | player 2 has 22 stone(s) on the board, more than the 21 of a 5x5 game
capstones | 1C,x2/x3/x3 2 2 | player 1 has 1 capstone(s) on the board, more than the 0 of a 3x3 game
capstones | 2C,x3/x4/x4/x4 1 2 | player 2 has 1 capstone(s) on the board, more than the 0 of a 4x4 game
capstones | 1C,1C,x3/x5/x5/x5/x5 2 3 | player 1 has 2 capstone(s) on the board, more than the 1 of a 5x5 game
capstones | 2C,x,2C,x3/x6/x6/x6/x6/x6 1 3 | player 2 has 2 capstone(s) on the board, more than the 1 of a 6x6 game
capstones | 1C,1C,21C,x5/x8/x8/x8/x8/x8/x8/x8 2 5 | player 1 has 3 capstone(s) on the board, more than the 2 of a 8x8 game
side | x5/x5/x5/x5/x5 3 1 | player to move must be 1 or 2, not '3'
side | x5/x5/x5/x5/x5 0 1 | player to move must be 1 or 2, not '0'
side | x5/x5/x5/x5/x5 w 1 | player to move must be 1 or 2, not 'w'
move_number | x5/x5/x5/x5/x5 1 0 | move number must be a positive integer, not '0'
move_number | x5/x5/x5/x5/x5 1 -1 | move number must be a positive integer, not '-1'
move_number | x5/x5/x5/x5/x5 1 abc | move number must be a positive integer, not 'abc'
move_number | x5/x5/x5/x5/x5 1 1.5 | move number must be a positive integer, not '1.5'
