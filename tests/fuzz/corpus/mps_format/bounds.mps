NAME bounds
ROWS
 N obj
 L c1
 G c2
COLUMNS
 a obj 1 c1 2
 b obj -1 c1 1
 b c2 3
 c obj 0.5 c2 -1
 d c1 1e-2
RHS
 RHS c1 10 c2 -4.5
 RHS obj 3
BOUNDS
 LO BND a -3
 UP BND a 1e3
 FX BND b 2
 FR BND c
 BV BND d
 LI BND e 1
 UI BND e 9
 PL BND a
ENDATA
