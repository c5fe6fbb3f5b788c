package dmem

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// TestNoStoreWriterAPI: dmem's face lists what a user calls; what a store writer needs lives in dmem/store.
func TestNoStoreWriterAPI(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	writer := map[string]bool{"Op": true, "OpKind": true, "Record": true, "Snapshot": true, "Hit": true,
		"NewLogP": true, "Put": true, "Delete": true, "Log": true, "Unlog": true, "Priority": true,
		"Evict": true, "Term": true, "State": true, "Clear": true, "Store": true, "Namespace": true}
	for _, p := range pkgs {
		for name, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && writer[d.Name.Name] {
						t.Errorf("%s: dmem exports func %s, a store writer's", name, d.Name.Name)
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if ts, ok := s.(*ast.TypeSpec); ok && writer[ts.Name.Name] {
							t.Errorf("%s: dmem exports type %s, a store writer's", name, ts.Name.Name)
						}
					}
				}
			}
		}
	}
}
