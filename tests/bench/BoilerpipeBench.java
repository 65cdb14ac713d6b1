// boilerpipe 1.2's DefaultExtractor (Debian's libboilerpipe-java), the
// fastest extractor husk is compared with, timed over a directory of pages
// as boilerpipe's users run it: in one warm JVM. The pages are read and
// decompressed first; then `passes` passes extract every page, and the
// best pass's CPU time (this thread's) gives pages per CPU-second. Run by
// `make bench-peers`:
//   java -cp /usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar \
//     tests/bench/BoilerpipeBench.java DIR [PASSES]
import de.l3s.boilerpipe.extractors.DefaultExtractor;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

public class BoilerpipeBench {
  static String read(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    if (file.toString().endsWith(".gz")) {
      try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        bytes = out.toByteArray();
      }
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: BoilerpipeBench DIR [PASSES]");
      System.exit(2);
    }
    final int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    List<Path> files;
    try (Stream<Path> s = Files.list(Paths.get(args[0]))) {
      files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
    List<String> pages = new ArrayList<>();
    for (Path f : files) pages.add(read(f));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE, first = 0;
    int failed = 0;
    for (int pass = 0; pass < passes; ++pass) {
      failed = 0;
      long start = threads.getCurrentThreadCpuTime();
      for (String html : pages) {
        try {
          DefaultExtractor.INSTANCE.getText(html);
        } catch (Exception e) {
          ++failed;
        }
      }
      long cpu = threads.getCurrentThreadCpuTime() - start;
      if (pass == 0) first = cpu;
      best = Math.min(best, cpu);
    }
    System.out.printf("boilerpipe DefaultExtractor: %d pages (%d failed), first pass %.3f s, best of %d %.3f s CPU, "
            + "%.1f pages per CPU-second%n",
        pages.size(), failed, first / 1e9, passes, best / 1e9, pages.size() / (best / 1e9));
  }
}
