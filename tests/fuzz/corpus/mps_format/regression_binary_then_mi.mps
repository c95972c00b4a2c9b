*ment
NAME test
OBJSENSE MAX
ROWS
 N cost
 E e1
 L l1
 G g1
COLUMNS
 x cost 1 e1 1
 m1 'MARKER' 'INTORG'
 y cost 2 l1 1
 y g1 1
 m2 l1 3
BOUNDS
 BV bnd— x 8
 MI x
ENDATA
