// Java over the tree: for every file of the list, Files.readAttributes (a path) and
// Files.readAllBytes (open, the channel's size, read). Compiled on the host with
// javac --release 17 (mk/bench-real.mk); the guest runs Debian 12's openjdk-17-jre-headless.
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.List;

public class JFiles {
    public static void main(String[] args) throws Exception {
        List<String> list = Files.readAllLines(Paths.get(args[0]));
        MessageDigest h = MessageDigest.getInstance("SHA-256");
        long size = 0, bytes = 0;
        int n = 0;
        for (String s : list) {
            if (s.isEmpty())
                continue;
            Path p = Paths.get(s);
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            size += a.size();
            byte[] b = Files.readAllBytes(p);
            bytes += b.length;
            h.update(b);
            n++;
        }
        StringBuilder hex = new StringBuilder();
        for (byte x : h.digest())
            hex.append(String.format("%02x", x));
        System.out.println(n + " " + size + " " + bytes + " " + hex);
    }
}
