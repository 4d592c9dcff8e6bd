package JouleCoreutils;
# Runs the cases of coreutils' own tests/misc/sort.pl (tests/sort/sort.pl in later releases)
# against GNU sort and joule sort side by side. It stands in for coreutils' test framework: it
# provides the three functions that sort.pl calls (getlimits, triple_test, run_tests), with the
# same meaning of a case (name, arguments as shell words, IN/IN_PIPE/OUT/ERR/EXIT/ENV/ERR_SUBST/
# CMP), written anew for this comparison. See run-sort-pl.sh for how to call it.
#
# For each case it reports whether GNU sort meets the case's own expectation, and whether joule
# gives GNU's exit status, standard output and output files (a FAIL), and GNU's standard error
# with the program name replaced (a "stderr" note: joule words some errors its own way).
use strict;
use warnings;
use Exporter 'import';
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);

our @EXPORT = qw(run_tests triple_test getlimits);

# The limits sort.pl reads: one past the largest uintmax_t and size_t of a 64-bit system.
sub getlimits {
  return { UINTMAX_OFLOW => '18446744073709551616', SIZE_OFLOW => '18446744073709551616' };
}

# A case with exactly one input also runs with that input redirected (name.r) and piped (name.p).
sub triple_test {
  my ($tests) = @_;
  my @all;
  for my $t (@$tests) {
    push @all, $t;
    my ($name, @rest) = @$t;
    my @args = grep { !ref } @rest;
    my @ins = grep { ref eq 'HASH' && exists $_->{IN} } @rest;
    my @other = grep { ref eq 'HASH' && !exists $_->{IN} } @rest;
    next unless @ins == 1;
    push @all, ["$name.r", @args, '<', {IN => $ins[0]{IN}}, @other];
    push @all, ["$name.p", @args, {IN_PIPE => $ins[0]{IN}}, @other];
  }
  return @all;
}

sub slurp {
  my ($f) = @_;
  open my $fh, '<:raw', $f or return undef;
  local $/;
  my $s = <$fh>;
  close $fh;
  return defined $s ? $s : '';
}

sub spit {
  my ($f, $data) = @_;
  open my $fh, '>:raw', $f or die "$f: $!\n";
  print $fh $data;
  close $fh or die "$f: $!\n";
}

sub quote { my ($s) = @_; $s =~ s/'/'\\''/g; return "'$s'"; }

# Runs one case with PROG in a fresh directory; returns exit, stdout, stderr and the CMP files.
sub run_one {
  my ($prog, $dir, $t) = @_;
  my ($name, @rest) = @$t;
  make_path($dir);
  my (@words, $pipe, $env, @cmp, $n);
  for my $e (@rest) {
    if (!ref $e) { push @words, $e; next; }
    for my $k (keys %$e) {
      my $v = $e->{$k};
      if ($k eq 'IN' || $k eq 'IN_PIPE') {
        my ($file, $data);
        if (ref $v eq 'HASH') { ($file) = keys %$v; $data = $v->{$file}; }
        else { $file = "$name." . ++$n; $data = $v; }
        spit("$dir/$file", $data) if defined $data;
        if ($k eq 'IN_PIPE') { $pipe = 'cat ' . quote($file) . ' |'; }
        else { push @words, quote($file); }
      } elsif ($k eq 'ENV') {
        $env = $v;
      } elsif ($k eq 'CMP') {
        my ($expected, $files) = @$v;
        push @cmp, [$expected, keys %$files];
      }
    }
  }
  my $cmd = join ' ', grep { defined } ($pipe, $env, $prog, @words, '> out 2> err');
  my $rc = system('sh', '-c', "cd " . quote($dir) . " && $cmd");
  my $exit = $rc == -1 ? -1 : ($rc & 127) ? 128 + ($rc & 127) : $rc >> 8;
  my @files = map { [$_->[0], $_->[1], slurp("$dir/$_->[1]")] } @cmp;
  return { exit => $exit, out => slurp("$dir/out"), err => slurp("$dir/err"), files => \@files,
           cmd => $cmd };
}

sub expect {
  my ($t, $type, $default) = @_;
  for my $e (@$t) { return $e->{$type} if ref $e eq 'HASH' && exists $e->{$type}; }
  return $default;
}

sub err_text {
  my ($err, $t, $name) = @_;
  $err =~ s/^\Q$name\E: /sort: /mg;
  my $subst = expect($t, 'ERR_SUBST', undef);
  # sort.pl's substitutions name the program as $prog, which its own framework has in scope
  my $prog = 'sort';
  if (defined $subst) { local $_ = $err; eval $subst; die $@ if $@; $err = $_; }
  return $err;
}

sub show { my ($s) = @_; $s =~ s/\n/\\n/g; $s =~ s/\0/\\0/g; return length $s > 120 ? substr($s, 0, 120) . '...' : $s; }

sub run_tests {
  my ($program_name, $prog, $tests) = @_;
  my $gnu = $ENV{GNU_SORT} || 'sort';
  my $joule = $ENV{JOULE_SORT} or die "set JOULE_SORT to the joule sort command\n";
  my $root = tempdir('sort-pl.XXXXXX', TMPDIR => 1, CLEANUP => 1);
  my ($n, $gnu_pass, $joule_fail, $err_diff) = (0, 0, 0, 0);
  my @failed;
  for my $t (@$tests) {
    my $name = $t->[0];
    next if defined $ENV{ONLY} && $name !~ /$ENV{ONLY}/;
    $n++;
    my $g = run_one($gnu, "$root/$name/gnu", $t);
    my $j = run_one($joule, "$root/$name/joule", $t);
    # Does GNU meet the case's own expectation?
    my $want_out = expect($t, 'OUT', '');
    my $want_err = expect($t, 'ERR', '');
    my $ok = $g->{exit} == expect($t, 'EXIT', 0)
      && (ref $want_out ? 1 : $g->{out} eq $want_out)
      && (ref $want_err ? 1 : err_text($g->{err}, $t, 'sort') eq $want_err);
    for my $f (@{$g->{files}}) { $ok &&= defined $f->[2] && $f->[2] eq $f->[0]; }
    $gnu_pass++ if $ok;
    my @why;
    push @why, "exit $g->{exit} vs $j->{exit}" if $g->{exit} != $j->{exit};
    push @why, "stdout '" . show($g->{out}) . "' vs '" . show($j->{out}) . "'" if $g->{out} ne $j->{out};
    for my $i (0 .. $#{$g->{files}}) {
      my ($gf, $jf) = ($g->{files}[$i], $j->{files}[$i]);
      push @why, "file $gf->[1]" if ($gf->[2] // "\x{0}none") ne ($jf->[2] // "\x{0}none");
    }
    my $gerr = err_text($g->{err}, $t, 'sort');
    my $jerr = err_text($j->{err}, $t, 'joule');
    my $status = @why ? 'FAIL' : 'ok';
    $status = 'FAIL (GNU fails this case too)' if @why && !$ok;
    if (@why && $ok) { $joule_fail++; push @failed, $name; }
    my $note = '';
    if ($gerr ne $jerr) { $err_diff++; $note = "  stderr: '" . show($gerr) . "' vs '" . show($jerr) . "'"; }
    printf "%-26s GNU %s, joule %s%s%s\n", $name, $ok ? 'passes' : 'FAILS', $status,
      @why ? ': ' . join('; ', @why) : '', $note;
    print "    $j->{cmd}\n" if @why;
  }
  printf "\n%d cases; GNU sort passes %d; joule differs from GNU in %d of those (%s); stderr words differ in %d\n",
    $n, $gnu_pass, $joule_fail, join(' ', @failed) || 'none', $err_diff;
  return $joule_fail ? 1 : 0;
}

1;
