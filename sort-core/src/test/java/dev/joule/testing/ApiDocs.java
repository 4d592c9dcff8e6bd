package dev.joule.testing;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Finds the API elements without a javadoc comment: every public or protected type, constructor,
 * method and field (and every enum constant) of the given packages, reachable from outside because
 * all its enclosing types are too. Overrides ({@code @Override}) inherit their documentation and
 * are skipped. javac's doclint checks what the comments say (references, HTML, tags); this checks
 * that they exist, without demanding a tag for every parameter.
 */
public final class ApiDocs {
  private ApiDocs() {}

  /** "file:line element" for each undocumented API element under {@code sourceRoot}. */
  public static List<String> undocumented(Path sourceRoot, List<String> packages)
      throws IOException {
    List<Path> files = new ArrayList<>();
    for (String p : packages) {
      Path dir = sourceRoot.resolve(p.replace('.', '/'));
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(f -> f.toString().endsWith(".java")).forEach(files::add);
      }
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> missing = new ArrayList<>();
    try (StandardJavaFileManager fm =
        javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      JavacTask task =
          (JavacTask)
              javac.getTask(
                  null,
                  fm,
                  null,
                  List.of("-proc:none"),
                  null,
                  fm.getJavaFileObjectsFromPaths(files));
      DocTrees docs = DocTrees.instance(task);
      for (CompilationUnitTree unit : task.parse()) {
        new Scanner(docs, unit, missing).scan(unit, null);
      }
    }
    return missing;
  }

  private static final class Scanner extends TreePathScanner<Void, Void> {
    private final DocTrees docs;
    private final CompilationUnitTree unit;
    private final List<String> missing;
    private final Deque<ClassTree> enclosing = new ArrayDeque<>();

    Scanner(DocTrees docs, CompilationUnitTree unit, List<String> missing) {
      this.docs = docs;
      this.unit = unit;
      this.missing = missing;
    }

    @Override
    public Void visitCompilationUnit(CompilationUnitTree t, Void v) {
      if (unit.getSourceFile().getName().endsWith("package-info.java")
          && docs.getDocCommentTree(TreePath.getPath(unit, unit.getPackage())) == null) {
        missing.add(unit.getSourceFile().getName() + ": package without documentation");
      }
      return super.visitCompilationUnit(t, null);
    }

    @Override
    public Void visitClass(ClassTree t, Void v) {
      if (!visible(t.getModifiers())) {
        return null; // nothing inside a hidden type is API
      }
      check(t.getSimpleName().toString());
      enclosing.push(t);
      try {
        return super.visitClass(t, null);
      } finally {
        enclosing.pop();
      }
    }

    @Override
    public Void visitMethod(MethodTree t, Void v) {
      boolean override =
          t.getModifiers().getAnnotations().stream()
              .anyMatch(a -> a.getAnnotationType().toString().equals("Override"));
      boolean implicitRecordMember = isRecord() && isGeneratedLooking(t);
      if (visible(t.getModifiers()) && !override && !implicitRecordMember) {
        check(t.getName() + "()");
      }
      return null; // local classes inside bodies are not API
    }

    @Override
    public Void visitVariable(VariableTree t, Void v) {
      Tree parent = getCurrentPath().getParentPath().getLeaf();
      if (parent instanceof ClassTree && (visible(t.getModifiers()) || isEnumConstant(t))) {
        check(t.getName().toString());
      }
      return null;
    }

    private boolean isRecord() {
      return !enclosing.isEmpty() && enclosing.peek().getKind() == Tree.Kind.RECORD;
    }

    /** A compact canonical constructor of a record is documented by the record's param tags. */
    private static boolean isGeneratedLooking(MethodTree m) {
      return m.getReturnType() == null && m.getParameters().isEmpty();
    }

    private boolean isEnumConstant(VariableTree t) {
      return !enclosing.isEmpty()
          && enclosing.peek().getKind() == Tree.Kind.ENUM
          && t.getType() == null;
    }

    private boolean visible(ModifiersTree m) {
      if (m.getFlags().contains(Modifier.PUBLIC) || m.getFlags().contains(Modifier.PROTECTED)) {
        return true;
      }
      if (m.getFlags().contains(Modifier.PRIVATE) || enclosing.isEmpty()) {
        return false;
      }
      Tree.Kind k = enclosing.peek().getKind();
      return k == Tree.Kind.INTERFACE || k == Tree.Kind.ANNOTATION_TYPE; // implicitly public
    }

    private void check(String name) {
      TreePath path = getCurrentPath();
      if (docs.getDocCommentTree(path) == null) {
        long line =
            unit.getLineMap()
                .getLineNumber(docs.getSourcePositions().getStartPosition(unit, path.getLeaf()));
        missing.add(
            Path.of(unit.getSourceFile().getName()).getFileName() + ":" + line + " " + name);
      }
    }
  }
}
